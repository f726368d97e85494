/**
 * Reading skill.md as source text: the `---` frontmatter split, the YAML parse
 * with source ranges, and the map from a frontmatter key path
 * (`phases.draft.tools[1]`) back to a line and column in the whole file.
 *
 * Owns: positions. Every located finding goes through `FrontmatterSource.locate`
 * so line/column are computed one way: 1-based, in the whole file (the
 * frontmatter starts on line 2), columns in UTF-16 code units as editors count
 * them, end positions exclusive (the column just after the last character).
 *
 * Does not: judge the content (structure.ts and the rule modules do), or read
 * the Markdown body beyond cutting it off (body.ts).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';

export type PathSegment = string | number;
export type KeyPath = PathSegment[];

/** A located span, 1-based, end exclusive. */
export type Span = { line: number; column: number; endLine: number; endColumn: number };

/** `['phases', 'draft', 'tools', 1]` → `phases.draft.tools[1]` */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/**
 * The inverse of `formatPath`: `phases.draft.tools[1]` → `['phases', 'draft', 'tools', 1]`,
 * `graph["my phase"]` → `['graph', 'my phase']`. Text that `formatPath` cannot have made
 * yields the segments read up to the first oddity (never throws).
 */
export function parsePath(text: string): KeyPath {
  const out: KeyPath = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      i++;
    } else if (c === '[' && text[i + 1] === '"') {
      // a JSON string: find its closing quote, skipping escapes
      let j = i + 2;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      try {
        out.push(JSON.parse(text.slice(i + 1, j + 1)) as string);
      } catch {
        return out;
      }
      i = j + 2; // past `"]`
    } else if (c === '[') {
      const j = text.indexOf(']', i);
      const n = j < 0 ? NaN : Number(text.slice(i + 1, j));
      if (!Number.isInteger(n)) return out;
      out.push(n);
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out;
}

/** Where the pieces of skill.md sit in the text. */
export type SkillSplit = {
  /** the YAML between the `---` lines */
  frontmatter: string;
  /** 1-based line of the first frontmatter line (2, unless the text is odd) */
  frontmatterLine: number;
  /** 1-based line of the closing `---` */
  closingLine: number;
  body: string;
  /** 1-based line where the body starts */
  bodyLine: number;
};

export type SplitFailure = { rule: 'frontmatter_missing' | 'frontmatter_unterminated'; message: string; span: Span };

const FENCE = /^---[ \t]*\r?$/;

/** Cuts skill.md into frontmatter and body, or says why it cannot. */
export function splitSkill(text: string): SkillSplit | SplitFailure {
  const lines = text.split('\n');
  const first = (lines[0] ?? '').replace(/^\uFEFF/, '');
  if (!FENCE.test(first)) {
    const width = Math.max(1, first.replace(/\r$/, '').length);
    return {
      rule: 'frontmatter_missing',
      message:
        'skill.md must start with a line `---` that opens the YAML frontmatter (name, entry, graph, …), ' +
        'closed by another `---` line before the Markdown body.',
      span: { line: 1, column: 1, endLine: 1, endColumn: width + 1 },
    };
  }
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (FENCE.test(lines[i])) {
      close = i;
      break;
    }
  }
  if (close < 0) {
    return {
      rule: 'frontmatter_unterminated',
      message:
        'The frontmatter opened by `---` on line 1 is never closed: add a line `---` after the last frontmatter key, ' +
        'before the Markdown body.',
      span: { line: 1, column: 1, endLine: 1, endColumn: 4 },
    };
  }
  const frontmatter = lines.slice(1, close).map((l) => `${l}\n`).join('');
  const body = lines.slice(close + 1).join('\n');
  return { frontmatter, frontmatterLine: 2, closingLine: close + 1, body, bodyLine: close + 2 };
}

export type ParsedFrontmatter = {
  doc: Document.Parsed;
  source: FrontmatterSource;
};

/** Parses the frontmatter YAML, keeping node ranges. Never throws. */
export function parseFrontmatter(split: SkillSplit): ParsedFrontmatter {
  const doc = parseDocument(split.frontmatter, { prettyErrors: false, keepSourceTokens: false });
  return { doc, source: frontmatterSource(doc, split) };
}

/** The located view of a parse of `split`'s frontmatter (incremental-parse.ts makes such parses too). */
export function frontmatterSource(doc: Document.Parsed, split: SkillSplit): FrontmatterSource {
  // Filled from the text rather than handed to the parser: the parser's
  // LineCounter learns only the newlines its lexer reports, and after a syntax
  // error it skips some, which shifts every later position.
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let i = split.frontmatter.indexOf('\n'); i >= 0; i = split.frontmatter.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
  return new FrontmatterSource(doc, split.frontmatter, lineCounter, split.frontmatterLine);
}

/** The frontmatter as a YAML tree, with positions in the whole file. */
export class FrontmatterSource {
  constructor(
    readonly doc: Document.Parsed,
    /** the frontmatter's text (node ranges are offsets into it) */
    readonly text: string,
    private readonly lineCounter: LineCounter,
    /** whole-file line of the frontmatter's first line */
    private readonly firstLine: number,
  ) {}

  /** Whole-file span of a frontmatter offset range; trailing blanks are not part of it. */
  spanOf(start: number, end: number): Span {
    let e = Math.max(start, Math.min(end, this.text.length));
    while (e > start && /\s/.test(this.text[e - 1])) e--;
    if (e === start) e = start + 1;
    const a = this.lineCounter.linePos(start);
    const b = this.lineCounter.linePos(e);
    return { line: a.line + this.firstLine - 1, column: a.col, endLine: b.line + this.firstLine - 1, endColumn: b.col };
  }

  /**
   * The frontmatter offset of a whole-file position (1-based line and column),
   * or undefined when the position is outside the frontmatter. A column past
   * the end of its line is clamped to the line's end.
   */
  offsetAt(line: number, column: number): number | undefined {
    const i = line - this.firstLine;
    const starts = this.lineCounter.lineStarts;
    if (i < 0 || i >= starts.length || column < 1) return undefined;
    const start = starts[i];
    if (start >= this.text.length && i > 0) return undefined; // the line after the last newline: the closing `---`
    const nl = this.text.indexOf('\n', start);
    const end = nl < 0 ? this.text.length : nl;
    return Math.min(start + column - 1, end);
  }

  /** The frontmatter text (what the YAML parser read). */
  get yamlText(): string {
    return this.text;
  }

  /** Whole-file span of a node's range, or undefined when it has none (or an empty one). */
  spanOfNode(node: unknown): Span | undefined {
    return this.rangeSpan(node);
  }

  /** Whole-file span of the first line of a node (where a cursor goes to select it). */
  headOfNode(node: unknown): Span | undefined {
    return this.rangeSpan(node, true);
  }

  /** Whole-file span of a whole `key: value` pair, from the key to the end of the value. */
  spanOfPair(pair: Pair): Span | undefined {
    const k = (pair.key as { range?: [number, number, number] } | null)?.range;
    const v = (pair.value as { range?: [number, number, number] } | null)?.range;
    if (!k) return undefined;
    return this.spanOf(k[0], Math.max(k[1], v ? v[1] : k[1]));
  }

  /** Whole-file span of a list item, its `- ` marker included (a block list item's node starts after it). */
  spanOfItem(node: unknown): Span | undefined {
    const r = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (!r || r[1] <= r[0]) return undefined;
    let start = r[0];
    let j = start - 1;
    while (j >= 0 && (this.text[j] === ' ' || this.text[j] === '\t')) j--;
    if (j >= 0 && this.text[j] === '-') start = j;
    return this.spanOf(start, r[1]);
  }

  /** The span of the opening `---` line: where findings about the whole frontmatter go. */
  topSpan(): Span {
    return { line: this.firstLine - 1, column: 1, endLine: this.firstLine - 1, endColumn: 4 };
  }

  private resolve(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }

  private keyOf(pair: Pair): string | undefined {
    const k = pair.key as unknown;
    if (isScalar(k)) return String(k.value);
    if (k === null || k === undefined) return undefined;
    return typeof k === 'object' ? undefined : String(k);
  }

  /** The pair holding `path`'s last key, when its parent is a mapping. */
  pairAt(path: readonly PathSegment[]): Pair | undefined {
    if (path.length === 0) return undefined;
    const parent = this.resolve(this.nodeAt(path.slice(0, -1)));
    const last = path[path.length - 1];
    if (!isMap(parent)) return undefined;
    return parent.items.find((p) => this.keyOf(p) === String(last));
  }

  /** The YAML node at `path`, or undefined when the path does not exist. */
  nodeAt(path: readonly PathSegment[]): YamlNode | undefined {
    let node: unknown = this.doc.contents;
    for (const seg of path) {
      node = this.resolve(node);
      if (isMap(node)) {
        const pair = node.items.find((p) => this.keyOf(p) === String(seg));
        if (!pair) return undefined;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        node = node.items[seg];
      } else {
        return undefined;
      }
      if (node === null || node === undefined) return undefined;
    }
    return (node ?? undefined) as YamlNode | undefined;
  }

  private rangeSpan(node: unknown, firstLineOnly = false): Span | undefined {
    const n = node as { range?: [number, number, number] } | null | undefined;
    if (!n || !n.range) return undefined;
    const [start, valueEnd] = n.range;
    if (valueEnd <= start) return undefined; // an empty value (`key:` with nothing): locate the key instead
    if (firstLineOnly) {
      const nl = this.text.indexOf('\n', start);
      return this.spanOf(start, nl < 0 ? valueEnd : Math.min(valueEnd, nl));
    }
    return this.spanOf(start, valueEnd);
  }

  /**
   * Where to point for `path`: its key (`which: 'key'`) or its value. A path
   * that does not exist, or an empty value, falls back to its key, then to the
   * nearest existing ancestor (its key, or the first line of an array item),
   * then to the opening `---`.
   */
  locate(path: readonly PathSegment[], which: 'key' | 'value' = 'value'): Span {
    if (which === 'value') {
      const s = this.rangeSpan(path.length === 0 ? this.doc.contents : this.nodeAt(path));
      if (s) return s;
    }
    for (let depth = path.length; depth > 0; depth--) {
      const p = path.slice(0, depth);
      const pair = this.pairAt(p);
      if (pair) {
        const s = this.rangeSpan(pair.key);
        if (s) return s;
      }
      // an array item has no key: the first line of the item itself
      if (typeof p[p.length - 1] === 'number') {
        const s = this.rangeSpan(this.nodeAt(p), depth < path.length);
        if (s) return s;
      }
    }
    return this.topSpan();
  }

  /** Whole-file 1-based line of a node at `path` (for step `line`). */
  lineOf(path: readonly PathSegment[]): number {
    return this.locate(path, 'value').line;
  }
}
