// What the studio needs of an analysis of the working copy, as plain data (it crosses from the
// analysis worker by structured clone): findings, the diagram model, where the prompts start, the
// entry's input contract; and the key under the cursor, asked separately. `Analyzer` keeps the last
// result: an unchanged diagram or findings list is reported as unchanged (not sent again), so the
// page redraws only what a keystroke changed.
import type { JsonSchema } from '@/lib/kernel/json';
import { analyzeBundle } from '@/lib/skill/analyze-bundle';
import { FrontmatterParser } from '@/lib/skill/incremental-parse';
import { jsonEqual } from '@/lib/skill/frontmatter';
import type { DiagramModel, DiagramNode } from '@/lib/skill/diagram';
import { inputContractOfFrontmatter } from '@/lib/skill/input-check';
import { describeKey, keyPathIn, type KeyInfo } from '@/lib/skill/key-info';
import type { FrontmatterSource } from '@/lib/skill/source';
import type { DiagnosticView, Files } from '@/lib/views';

export type StudioAnalysis = {
  diagnostics: DiagnosticView[];
  /** null while skill.md has no frontmatter mapping to draw */
  diagram: DiagramModel | null;
  /** the first line of the Markdown body */
  bodyLine: number | undefined;
  inputContract: { phase: string; schema: JsonSchema } | null;
};

/**
 * `files`: the bundle; with `isPatch`, only the files whose text changed since the last request to
 * the same Analyzer (and `removed`, the paths gone): a keystroke does not copy the whole bundle to
 * the worker.
 */
export type AnalyzeRequest = { kind: 'analyze'; id: number; files: Files; isPatch?: boolean; removed?: string[]; knownSkills: string[]; skillName: string };
export type KeyRequest = { kind: 'key'; id: number; line: number; column: number };
export type AnalysisRequest = AnalyzeRequest | KeyRequest;

/**
 * What changed of the diagram: the nodes that differ from the last one's (by id), the order of all
 * of them, and the rest of the model when it differs. Unchanged nodes are not sent, so the page
 * keeps their objects, and redraws their cards not at all.
 */
export type DiagramPatch = { nodes: DiagramNode[]; order: string[]; rest?: Omit<DiagramModel, 'nodes'> };

/**
 * An analysis; `diagnostics` and `inputContract` are left out when they are what the last one
 * said, and the diagram is a patch (`diagram`), `null` (nothing to draw), or left out (unchanged).
 */
export type AnalysisReply = { kind: 'analysis'; id: number; bodyLine: number | undefined; diagram?: DiagramPatch | null } & Partial<Pick<StudioAnalysis, 'diagnostics' | 'inputContract'>>;
export type KeyReply = { kind: 'key'; id: number; keyInfo: KeyInfo | null };
export type AnalysisWorkerReply = AnalysisReply | KeyReply;

export function analyzeForStudio(
  files: Files,
  opts: { knownSkills: readonly string[]; skillName: string; parser?: FrontmatterParser },
): StudioAnalysis & { source: FrontmatterSource | undefined } {
  const known = opts.knownSkills.includes(opts.skillName) ? [...opts.knownSkills] : [...opts.knownSkills, opts.skillName];
  const parser = opts.parser;
  const a = analyzeBundle(files, { knownSkills: known, skillName: opts.skillName, parseFrontmatter: parser && ((split) => parser.parse(split)) });
  return {
    diagnostics: a.diagnostics,
    diagram: a.diagram,
    bodyLine: a.analysis.split?.bodyLine,
    inputContract: inputContractOfFrontmatter(a.analysis.frontmatter),
    source: a.analysis.source,
  };
}

/** what an Analyzer has said before its first reply: equal to nothing a reply says */
const NOT_SAID = Symbol('not said');

export function keyInfoAt(source: FrontmatterSource | undefined, line: number, column: number): KeyInfo | null {
  if (!source) return null;
  const path = keyPathIn(source, line, column);
  if (!path) return null;
  return describeKey(path, (p) => {
    const v = source.nodeAt(p) as { value?: unknown } | undefined;
    return v && typeof v === 'object' && 'value' in v ? v.value : undefined;
  });
}

/** What to send for `files` to an Analyzer that has `had` (null: nothing yet): the files that changed, or all of them. */
export function filesPatch(had: Files | null, files: Files): Pick<AnalyzeRequest, 'files' | 'isPatch' | 'removed'> {
  if (!had) return { files };
  const changed: Files = {};
  for (const [p, text] of Object.entries(files)) if (had[p] !== text) changed[p] = text;
  const removed = Object.keys(had).filter((p) => !Object.hasOwn(files, p));
  return { files: changed, isPatch: true, ...(removed.length ? { removed } : {}) };
}

/** The model a patch makes of the one before it: unchanged nodes are the very objects they were. */
export function applyDiagramPatch(prev: DiagramModel | null, patch: DiagramPatch): DiagramModel {
  const changed = new Map(patch.nodes.map((n) => [n.id, n]));
  const before = new Map((prev?.nodes ?? []).map((n) => [n.id, n]));
  const nodes = patch.order.map((id) => {
    const n = changed.get(id) ?? before.get(id);
    if (!n) throw new Error(`the diagram patch names a node it does not send and the page does not have: ${id}`);
    return n;
  });
  const rest = patch.rest ?? (prev ? (({ nodes: _n, ...r }) => r)(prev) : null);
  if (!rest) throw new Error('the first diagram patch of a page carries the whole model');
  return { ...rest, nodes };
}

/**
 * The analyses of one page, one after the other: each says only what changed since the last. The
 * page applies every reply, in order (applyDiagramPatch), so its model is always the worker's.
 */
export class Analyzer {
  private source: FrontmatterSource | undefined;
  /** the last parse's pieces: a keystroke re-parses only the piece of the frontmatter it is in */
  private readonly parser = new FrontmatterParser();
  private analyses = 0;
  /** the last request's settings (prime analyses with them) */
  private lastSettings: Pick<AnalyzeRequest, 'knownSkills' | 'skillName'> = { knownSkills: [], skillName: '' };
  /** the bundle as the last request left it (a patch is laid over it) */
  private files: Files | null = null;
  /** what the last reply said (NOT_SAID before the first): compared value by value, not as JSON text (no strings made per keystroke) */
  private last: { diagnostics: unknown; inputContract: unknown } = { diagnostics: NOT_SAID, inputContract: NOT_SAID };
  /** the first line of the body the last reply said */
  private bodyLine: number | undefined;
  /** the last diagram: its nodes by id, their order, the rest; null when there was none */
  private drawn: { nodes: Map<string, DiagramNode>; order: string[]; rest: Omit<DiagramModel, 'nodes'> } | null = null;

  analyze(req: AnalyzeRequest): AnalysisReply {
    // nothing changed since the last analysis (the page rendered the text it had already sent, after
    // a pause in the typing): nothing to analyse, and the worker is free at once for the next keystroke
    if (this.unchanged(req)) return { kind: 'analysis', id: req.id, bodyLine: this.bodyLine };
    // the first analysis comes as the page opens, while it loads the editor and the diagram: parsed
    // whole, as before (cutting a parse into pieces costs more than the whole parse the first time)
    const parser = this.analyses++ === 0 ? undefined : this.parser;
    const files = this.bundleOf(req);
    this.lastSettings = { knownSkills: req.knownSkills, skillName: req.skillName };
    const { source, bodyLine, diagram, ...parts } = analyzeForStudio(files, { ...req, parser });
    this.source = source;
    this.bodyLine = bodyLine;
    const reply: AnalysisReply = { kind: 'analysis', id: req.id, bodyLine };
    // compared by value: a keystroke that changes no card (a description, a prompt) sends no diagram
    for (const k of ['diagnostics', 'inputContract'] as const) {
      if (!jsonEqual(parts[k], this.last[k])) Object.assign(reply, { [k]: parts[k] });
      this.last[k] = parts[k];
    }
    if (!diagram) {
      if (this.drawn !== null || req.id === 1) reply.diagram = null;
      this.drawn = null;
      return reply;
    }
    const { nodes, ...rest } = diagram;
    const before = this.drawn;
    const order = nodes.map((n) => n.id);
    const changed = nodes.filter((n) => !before?.nodes.has(n.id) || !jsonEqual(n, before.nodes.get(n.id)));
    const sameRest = before !== null && jsonEqual(rest, before.rest);
    const sameOrder = before !== null && order.length === before.order.length && order.every((id, i) => id === before.order[i]);
    if (changed.length || !sameRest || !sameOrder) {
      reply.diagram = { nodes: changed, order, ...(sameRest ? {} : { rest }) };
    }
    this.drawn = { nodes: new Map(nodes.map((n) => [n.id, n])), order, rest };
    return reply;
  }

  /**
   * Readies the next keystroke's analysis while nothing is asked (the worker calls it after the
   * first analysis, until the first keystroke): the frontmatter of the files last analysed is cut
   * and parsed into the pieces a keystroke re-parses one of (the first analysis parses it whole),
   * and the analysis runs once more on them, its result thrown away, so the engine has compiled
   * that code before a keystroke waits on it. Changes no reply: what was said and the key's source
   * stay the last request's. Returns false when there is nothing to prime (no analysis yet).
   */
  prime(): boolean {
    if (!this.files) return false;
    analyzeForStudio(this.files, { knownSkills: this.lastSettings.knownSkills, skillName: this.lastSettings.skillName, parser: this.parser });
    return true;
  }

  /** whether `req` is a patch that changes no file, with the last request's settings */
  private unchanged(req: AnalyzeRequest): boolean {
    const { knownSkills, skillName } = this.lastSettings;
    return (
      this.analyses > 0 &&
      req.isPatch === true &&
      Object.keys(req.files).length === 0 &&
      !req.removed?.length &&
      req.skillName === skillName &&
      req.knownSkills.length === knownSkills.length &&
      req.knownSkills.every((k, i) => k === knownSkills[i])
    );
  }

  private bundleOf(req: AnalyzeRequest): Files {
    if (!req.isPatch) return (this.files = req.files);
    if (!this.files) throw new Error('a patch of the files came before the files it patches');
    const files = { ...this.files, ...req.files };
    for (const p of req.removed ?? []) delete files[p];
    return (this.files = files);
  }

  key(req: KeyRequest): KeyReply {
    return { kind: 'key', id: req.id, keyInfo: keyInfoAt(this.source, req.line, req.column) };
  }

  handle(req: AnalysisRequest): AnalysisWorkerReply {
    return req.kind === 'analyze' ? this.analyze(req) : this.key(req);
  }
}
