/**
 * Validating skill.md: text in, located findings out, in one pass that
 * reports everything it can (a structural error does not hide a graph error
 * elsewhere). The server, the CLI and the editor's markers all call this.
 *
 * Owns: the order of the passes — size, `---` split, YAML syntax (stops here
 * on a syntax error: later passes would only echo it), frontmatter is a
 * mapping, structure against `skillFrontmatterSchema`, the semantic checks,
 * the body — and `analyzeSkill`, which also hands the compiler what the
 * passes learnt. Does not: build the plan (compile.ts) or read skill.md from
 * disk (load.ts). Imports nothing from Node, so it runs in the browser when
 * the caller passes `fileExists`.
 */
import type { Diagnostic } from '../kernel/errors';
import type { FileExists, ReadBundleText } from './bundle-paths';
import type { BodySections } from './body';
import { readBody } from './body';
import { checkCapabilities } from './check-capabilities';
import type { CheckContext } from './check-context';
import { checkGraph, checkSuccessorNames } from './check-graph';
import { checkTools } from './check-ops';
import type { LlmContract } from './check-schemas';
import { checkSchemasAndContracts } from './check-schemas';
import { checkProcessors } from './check-steps';
import type { GraphFacts } from './frontmatter';
import { graphFacts } from './frontmatter';
import { Findings } from './rules';
import type { Alias, Document, Pair, Scalar } from 'yaml';
import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { FrontmatterSource, ParsedFrontmatter, SkillSplit } from './source';
import { parseFrontmatter, splitSkill } from './source';
import { checkStructure } from './structure';
import { overIndentHint } from './yaml-indent-hint';

export const MAX_SKILL_BYTES = 1_000_000;

export type ValidateOptions = {
  /** the file name put in every diagnostic */
  file: string;
  /**
   * the bundle folder; module paths and run_skill targets resolve against it.
   * `IN_MEMORY_BUNDLE` for a bundle held as a files map (see analyze-bundle.ts).
   */
  bundleDir: string;
  /** whether a file exists (default: the local file system, when there is one) */
  fileExists?: FileExists;
  /** a bundle file's text, asked as `fileExists` is (default: the local file system, when there is one) */
  readText?: ReadBundleText;
  /** parses the frontmatter (default `parseFrontmatter`; the editor's reuses the last parse: incremental-parse.ts) */
  parseFrontmatter?: (split: SkillSplit) => ParsedFrontmatter;
};

/** Everything the passes learnt; the compiler reads it when there are no errors. */
export type SkillAnalysis = {
  diagnostics: Diagnostic[];
  split?: SkillSplit;
  source?: FrontmatterSource;
  frontmatter?: Record<string, unknown>;
  graph?: GraphFacts;
  body?: BodySections;
  llmContract?: LlmContract;
};

type StatFs = {
  statSync(p: string, o: { throwIfNoEntry: false }): { isFile(): boolean; size: number } | undefined;
  readFileSync(p: string, encoding: 'utf8'): string;
};

function nodeFs(): StatFs | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.('node:fs') as StatFs | undefined;
}

/**
 * The local file system's "is there a file", found without a static `node:fs`
 * import so that this module bundles for the browser; there it checks
 * nothing (the editor passes its own `fileExists`).
 */
function defaultFileExists(): FileExists {
  const fs = nodeFs();
  if (!fs) return () => true;
  return (p) => {
    try {
      return fs.statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
    } catch {
      return false;
    }
  };
}

/** a module larger than this is not read for what it defines (nothing is said of it) */
export const MAX_READ_MODULE_BYTES = 1024 * 1024;

/**
 * The local file system's text of a file, found as `defaultFileExists` finds it; in the browser, none.
 * Only a regular file, and one of at most MAX_READ_MODULE_BYTES: a validation never waits on a pipe
 * nor reads a file of any size.
 */
function defaultReadText(): ReadBundleText | undefined {
  const fs = nodeFs();
  if (!fs) return undefined;
  return (p) => {
    try {
      const st = fs.statSync(p, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size > MAX_READ_MODULE_BYTES) return undefined;
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  };
}

function utf8Length(text: string): number {
  if (text.length * 3 <= MAX_SKILL_BYTES) return text.length; // cannot exceed: skip the encode
  return new TextEncoder().encode(text).length;
}

/** At most this many YAML syntax errors are shown: after the first, most are echoes of it. */
const MAX_YAML_ERRORS = 5;

/**
 * In one walk of the tree: keys repeated in one mapping (the parser's own
 * report points at the value, not the key), and aliases inside the node they
 * name (`&s { p: *s }`), which make the frontmatter an infinite value.
 */
function treeFacts(doc: Document.Parsed): { repeated: Pair[]; circular: Alias[] } {
  const repeated: Pair[] = [];
  const circular: Alias[] = [];
  // a plain recursive walk: yaml's `visit` builds a path array per node, which costs a millisecond on a large skill
  const ancestors: unknown[] = [];
  const walk = (node: unknown): void => {
    if (isAlias(node)) {
      if (ancestors.includes(node.resolve(doc))) circular.push(node);
    } else if (isMap(node)) {
      ancestors.push(node);
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key !== undefined) {
          if (seen.has(key)) repeated.push(pair);
          seen.add(key);
        }
        walk(pair.key);
        walk(pair.value);
      }
      ancestors.pop();
    } else if (isSeq(node)) {
      ancestors.push(node);
      for (const item of node.items) walk(item);
      ancestors.pop();
    }
  };
  walk(doc.contents);
  return { repeated, circular };
}

function reportYamlErrors(doc: Document.Parsed, source: FrontmatterSource, repeated: Pair[], findings: Findings): void {
  let duplicates = false;
  for (const pair of repeated) {
    const key = pair.key as Scalar;
    const [start, end] = key.range ?? [0, 1];
    findings.addAt('duplicate_key', `Key \`${String(key.value)}\` appears twice in the same mapping: YAML keeps only one. Remove or merge the repeat.`, source.spanOf(start, end));
    duplicates = true;
  }
  const syntax = doc.errors
    .filter((e) => e.code !== 'DUPLICATE_KEY' || !duplicates)
    .sort((a, b) => a.pos[0] - b.pos[0])
    // an unexpected token after an earlier error is nearly always that error's echo
    .filter((e, i) => i === 0 || e.code !== 'UNEXPECTED_TOKEN')
    // one error per position: a second one there (an over-indented line is both "Nested mappings are
    // not allowed in compact mappings" and "Implicit keys need to be on a single line") restates the
    // first, which the parser gives first and is the more specific
    .filter((e, i, all) => i === 0 || e.pos[0] !== all[i - 1].pos[0]);
  syntax.slice(0, MAX_YAML_ERRORS).forEach((e, i, shown) => {
    const more = i === shown.length - 1 && syntax.length > shown.length ? ` (${syntax.length - shown.length} more YAML errors follow; fix these first.)` : '';
    const opener = isUnclosedError(e) ? unclosedOpener(doc, source.text, e.pos[0]) : null;
    if (opener) {
      findings.addAt('yaml_syntax', `YAML syntax error: ${opener.message}${more}`, source.spanOf(opener.at, opener.at + 1));
      return;
    }
    const [start, end] = e.pos;
    const message =
      e.code === 'DUPLICATE_KEY'
        ? 'A key appears twice in the same mapping: YAML keeps only one. Remove or merge the repeat.'
        : `YAML syntax error: ${e.message.replace(/\.?$/, '.')} Fix the YAML here (indent with spaces; quote values containing ": " or " #").` +
          (e.code === 'BLOCK_AS_IMPLICIT_KEY' ? overIndentHint(source.text, start, (a, b) => source.spanOf(a, b)) : '');
    findings.addAt(e.code === 'DUPLICATE_KEY' ? 'duplicate_key' : 'yaml_syntax', message + more, source.spanOf(start, Math.max(end, start + 1)));
  });
}

/** the parser's words for a collection or string it reached the end of without its closer */
const isUnclosedError = (e: { code: string; message: string }) => e.code === 'MISSING_CHAR' || /end with an? [\]}]|Missing closing/.test(e.message);

const CLOSER: Record<string, string> = { '[': ']', '{': '}', '"': '"', "'": "'" };
const OPENED: Record<string, string> = { '[': 'a flow sequence', '{': 'a flow mapping', '"': 'a double-quoted string', "'": 'a single-quoted string' };

/** whether a quoted scalar's text ends with its own quote (not an escaped one: `\"`, `''`) */
function quoteClosed(body: string): boolean {
  const q = body[0];
  if (body.length < 2 || !body.endsWith(q)) return false;
  if (q === '"') return !/(^|[^\\])(\\\\)*\\"$/.test(body.slice(1));
  // in a single-quoted string a quote is written twice: an odd run of quotes at the end closes it
  // (counted back from the end: /'+$/ tries every quote of every run and reads each run to its end,
  // so a scalar of 100,000 quotes held the validator 16 s)
  let run = 0;
  while (run < body.length - 1 && body[body.length - 1 - run] === "'") run++;
  return run % 2 === 1;
}

/** whether a flow collection's text closes what it opens (brackets inside quoted strings do not count) */
function flowClosed(body: string): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"' || c === "'") {
      // past the string's closing quote (`\"` escapes one in double quotes, `''` in single ones)
      for (i++; i < body.length; i++) {
        if (c === '"' && body[i] === '\\') i++;
        else if (c === "'" && body[i] === "'" && body[i + 1] === "'") i++;
        else if (body[i] === c) break;
      }
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i === body.length - 1;
    }
  }
  return false;
}

/**
 * The `[`, `{` or quote that an error at `pos` is the echo of: the parser reports an unclosed one
 * where it gave up looking for its end (the next line, or the end of the frontmatter), which is not
 * where the author left it open. The opener is the start of the last flow collection or quoted
 * scalar before `pos` whose text does not close what it opens.
 */
function unclosedOpener(doc: Document.Parsed, text: string, pos: number): { at: number; message: string } | null {
  let found: number | null = null;
  const consider = (node: unknown) => {
    const n = node as { range?: [number, number, number]; flow?: boolean; type?: string } | null;
    if (!n?.range || n.range[0] >= pos) return;
    const open = text[n.range[0]];
    const isFlow = n.flow === true && (open === '[' || open === '{');
    const isQuoted = (n.type === 'QUOTE_DOUBLE' && open === '"') || (n.type === 'QUOTE_SINGLE' && open === "'");
    if (!isFlow && !isQuoted) return;
    const body = text.slice(n.range[0], n.range[1]).trimEnd();
    if (!(isFlow ? flowClosed(body) : quoteClosed(body)) && (found === null || n.range[0] > found)) found = n.range[0];
  };
  const visit = (node: unknown): void => {
    consider(node);
    if (isMap(node)) {
      for (const p of node.items) {
        visit(p.key);
        visit(p.value);
      }
    } else if (isSeq(node)) for (const item of node.items) visit(item);
  };
  visit(doc.contents);
  if (found === null) return null;
  const open = text[found];
  return {
    at: found,
    message:
      open === '"' || open === "'"
        ? `this ${open} opens ${OPENED[open]} that is never closed: end it with ${open} on the same line (a quote inside it is written ${open === '"' ? '\\"' : "''"}).`
        : `this \`${open}\` opens ${OPENED[open]} that is never closed: end it with \`${CLOSER[open]}\` (on its line, or on a line indented more than its key).`,
  };
}

/** skill.md whose opening `---` is never closed, read as all frontmatter */
function unterminatedSplit(text: string): SkillSplit {
  const lines = text.split('\n');
  const frontmatter = lines.slice(1).map((l) => `${l}\n`).join('');
  return { frontmatter, frontmatterLine: 2, closingLine: lines.length + 1, body: '', bodyLine: lines.length + 2 };
}

export function analyzeSkill(text: string, opts: ValidateOptions): SkillAnalysis {
  const bare = new Findings(opts.file);
  const size = utf8Length(text);
  if (size > MAX_SKILL_BYTES) {
    bare.addAt(
      'skill_too_large',
      `skill.md is ${size} bytes, over the limit of ${MAX_SKILL_BYTES}: move large data into files of the bundle and read them with ops.`,
      { line: 1, column: 1, endLine: 1, endColumn: 2 },
    );
    return { diagnostics: bare.sorted() };
  }
  const cut = splitSkill(text);
  if ('rule' in cut && cut.rule === 'frontmatter_missing') {
    bare.addAt(cut.rule, cut.message, cut.span);
    return { diagnostics: bare.sorted() };
  }
  // a frontmatter not closed yet (an author typing it) is read to the end of the file, so everything
  // else about it is found and drawn too; the missing `---` stays the first error
  const split = 'rule' in cut ? unterminatedSplit(text) : cut;
  const { doc, source } = (opts.parseFrontmatter ?? parseFrontmatter)(split);
  const findings = new Findings(opts.file, source);
  if ('rule' in cut) findings.addAt(cut.rule, cut.message, cut.span);
  const tree = treeFacts(doc);
  reportYamlErrors(doc, source, tree.repeated, findings);
  for (const w of doc.warnings) {
    findings.addAt('yaml_warning', `YAML: ${w.message.replace(/\.?$/, '.')}`, source.spanOf(w.pos[0], Math.max(w.pos[1], w.pos[0] + 1)));
  }
  if (doc.errors.length) return { diagnostics: findings.sorted(), split };
  for (const alias of tree.circular) {
    const [start, end] = alias.range ?? [0, 1];
    findings.addAt(
      'yaml_syntax',
      `The alias \`*${alias.source}\` sits inside the node it names, so the frontmatter would be infinite: write that value out instead of the alias.`,
      source.spanOf(start, Math.max(end, start + 1)),
    );
  }
  if (tree.circular.length) return { diagnostics: findings.sorted(), split };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    findings.add('yaml_syntax', `The frontmatter cannot be read: ${err instanceof Error ? err.message : String(err)}. Remove the alias loops.`, []);
    return { diagnostics: findings.sorted(), split };
  }
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    findings.add(
      'frontmatter_not_mapping',
      value === null || value === undefined
        ? 'The frontmatter is empty: it needs at least `name`, `entry` and `graph` (see the skill.md format).'
        : `The frontmatter must be a mapping of keys (name, entry, graph, …), but it is ${Array.isArray(value) ? 'a list' : 'a single value'}.`,
      [],
    );
    return { diagnostics: findings.sorted(), split };
  }
  const fm = value as Record<string, unknown>;
  checkStructure(fm, findings);
  const graph = graphFacts(fm);
  const ctx: CheckContext = {
    fm,
    graph,
    findings,
    source,
    bundleDir: opts.bundleDir,
    fileExists: opts.fileExists ?? defaultFileExists(),
    readText: opts.readText ?? (opts.fileExists ? undefined : defaultReadText()),
  };
  checkGraph(ctx);
  const llmContract = checkSchemasAndContracts(ctx);
  checkTools(ctx);
  checkProcessors(ctx);
  checkCapabilities(ctx);
  const headings: string[] = [];
  const body = readBody(split.body, split.bodyLine, graph.phases, findings, headings);
  checkSuccessorNames(ctx, headings);
  return { diagnostics: findings.sorted(), split, source, frontmatter: fm, graph, body, llmContract };
}

/** Every finding in skill.md (errors and warnings), sorted by position. Never throws on any text. */
export function validateSkill(text: string, opts: ValidateOptions): { diagnostics: Diagnostic[] } {
  return { diagnostics: analyzeSkill(text, opts).diagnostics };
}
