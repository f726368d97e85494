/**
 * The diagram of a skill, built from the validator's analysis (not from the
 * compiled Plan), so that a skill with errors is still drawn, its invalid
 * parts marked: the phase graph, each phase's preprocessor steps and stages by
 * rung, the postprocessor chain, and the caller contract the chain ends in.
 *
 * Owns: node and item ids (`phase:<name>`, `pre:<phase>:<i>`, `post:<i>`,
 * nested `post:<i>/<j>`, `cap:<i>`, `contract`), their labels — which are also
 * their accessible names, a contract with the acceptance tests; each begins with
 * its id's words (node-names.ts), as the diagram's edges name their ends — and the two
 * links between text and picture: `span` (where selecting a node puts the
 * cursor) and `regions` (every span of a declaration, so `nodeAt` maps a
 * cursor to the innermost node). Reads the frontmatter defensively: any
 * mapping, however wrong, gives a model, and nothing here throws.
 *
 * Does not: lay anything out (positions are the app's job), or decide what is
 * wrong — diagnostics come from the validator and are only attached here
 * (diagram-problems.ts).
 */
import type { Pair } from 'yaml';
import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import { PHASE_LADDER } from '../kernel/plan';
import { stageEffects } from './check-capabilities';
import type { ContractRef } from './diagram-contracts';
import { contractRef, summarizeSchema } from './diagram-contracts';
import { placeProblems } from './diagram-problems';
import { nodeWords } from './node-names';
import type {
  Build,
  ContractDiagramNode,
  DiagramEdge,
  DiagramModel,
  DiagramNode,
  DiagramRegion,
  Marked,
  PhaseDiagramNode,
  StageGroup,
  StageItem,
  StepDiagramNode,
  StepItem,
} from './diagram-types';
import { arr, has, obj, str, strings } from './frontmatter';
import { DEFAULT_MAX_ROUNDS, ON_ERROR } from './schema';
import type { FrontmatterSource, KeyPath, Span } from './source';
import type { SkillAnalysis } from './validate';

export type { ContractRef } from './diagram-contracts';
export type {
  ContractDiagramNode,
  DiagramEdge,
  DiagramModel,
  DiagramNode,
  DiagramRegion,
  NodeProblem,
  PhaseDiagramNode,
  StageGroup,
  StageItem,
  StepDiagramNode,
  StepItem,
} from './diagram-types';

function register(b: Build, id: string, marked: Marked, alsoMarks: string[] = []): void {
  b.targets.set(id, { marked, alsoMarks });
}

function usesArtifact(b: Build, id: string, ref: ContractRef | string | undefined): void {
  const name = typeof ref === 'string' ? ref : ref?.kind === 'artifact' ? ref.name : undefined;
  if (name === undefined) return;
  let users = b.artifactUsers.get(name);
  if (!users) b.artifactUsers.set(name, (users = new Set()));
  users.add(id);
}

/** The pairs of the mapping at `path`, by key (aliases are not followed: a rare spelling, located by fallbacks). */
function pairsAt(source: FrontmatterSource, path: KeyPath): Map<string, Pair> {
  const out = new Map<string, Pair>();
  const node = source.nodeAt(path);
  if (!isMap(node)) return out;
  for (const pair of node.items) {
    if (isScalar(pair.key) && !out.has(String(pair.key.value))) out.set(String(pair.key.value), pair);
  }
  return out;
}

function seqItem(node: unknown, i: number): unknown {
  return isSeq(node) ? node.items[i] : undefined;
}

const typeOf = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

function stepDetail(type: string, step: Record<string, unknown>): string {
  const shown = (v: unknown) => (typeof v === 'string' ? v : '?');
  switch (type) {
    case 'python':
    case 'node':
      return `${shown(step.module).replace(/^\.\//, '')} : ${shown(step.function)}`;
    case 'run_op':
      return `op ${shown(step.op)}`;
    case 'validate': {
      const schema = typeof step.schema === 'string' ? `schema ${step.schema}` : `inline schema (${summarizeSchema(step.schema)})`;
      return typeof step.path === 'string' ? `${schema} at ${step.path}` : schema;
    }
    case 'iterate':
      return `over ${shown(step.over)} → ${shown(step.into)}`;
    case 'lint_plan':
      return `plan ${shown(step.plan)} → ${typeof step.into === 'string' ? step.into : 'lint'}`;
    default:
      return '';
  }
}

type StepNaming = { idHead: string; numberHead: string; alsoMarks: string[] };

function buildSteps(b: Build, raw: unknown, path: KeyPath, naming: StepNaming): StepItem[] {
  const listNode = b.source.nodeAt(path);
  return arr(raw).map((rawStep, index): StepItem => {
    const at = [...path, index];
    const step = obj(rawStep);
    const type = typeOf(step.type);
    const number = `${naming.numberHead}${index}`;
    const id = `${naming.idHead}${number}`;
    const node = seqItem(listNode, index);
    const region = b.source.spanOfItem(node);
    if (region) b.regions.push({ id, span: region });
    const steps =
      type === 'iterate' && has(step, 'steps')
        ? buildSteps(b, step.steps, [...at, 'steps'], { ...naming, numberHead: `${number}/`, alsoMarks: [id, ...naming.alsoMarks] })
        : undefined;
    const codePure = (type === 'python' || type === 'node') && step.pure === true;
    const item: StepItem = {
      id,
      index,
      type,
      label: `${nodeWords(id)} ${type || 'untyped'}`,
      detail: stepDetail(type, step),
      onError: (ON_ERROR as readonly unknown[]).includes(step.on_error) ? (step.on_error as StepItem['onError']) : 'fail',
      into: typeof step.into === 'string' ? step.into : type === 'lint_plan' ? 'lint' : null,
      pure: type === 'validate' || type === 'lint_plan' || codePure || (steps !== undefined && steps.every((s) => s.pure)),
      ...(steps ? { steps } : {}),
      invalid: false,
      problems: [],
      span: b.source.headOfNode(node) ?? b.source.locate(at),
    };
    register(b, id, item, naming.alsoMarks);
    if (type === 'validate') usesArtifact(b, id, str(step.schema));
    return item;
  });
}

function buildStages(b: Build): StageItem[] {
  const granted = strings(obj(b.fm.permissions).effects);
  const listNode = b.source.nodeAt(['capabilities']);
  return arr(b.fm.capabilities).map((raw, index): StageItem => {
    const cap = obj(raw);
    const id = `cap:${index}`;
    const node = seqItem(listNode, index);
    const region = b.source.spanOfItem(node);
    if (region) b.regions.push({ id, span: region });
    const effects = stageEffects(cap);
    const missing = effects.filter((e) => !granted.includes(e));
    const name = str(cap.name) ?? `capabilities[${index}]`;
    const rung = str(cap.stage) ?? '';
    const item: StageItem = {
      id,
      index,
      name,
      rung,
      uses: str(cap.uses) ?? '',
      effects,
      missing,
      refused: missing.length > 0,
      label: `stage ${name} on ${rung || '(no rung)'}${missing.length ? ` refused: ${missing.join(', ')} not granted` : ''}`,
      invalid: false,
      problems: [],
      span: b.source.headOfNode(node) ?? b.source.locate(['capabilities', index]),
    };
    register(b, id, item);
    return item;
  });
}

function groupStages(stages: StageItem[]): StageGroup[] {
  const rungs: string[] = [...PHASE_LADDER];
  for (const s of stages) if (!rungs.includes(s.rung)) rungs.push(s.rung);
  return rungs.map((rung) => ({ rung, items: stages.filter((s) => s.rung === rung) })).filter((g) => g.items.length > 0);
}

/** The LLM contract as written: `final_output`/`output_schema`, else the first terminal phase's own, else none. */
function llmContractOf(b: Build, terminal: string[]): { ref: ContractRef; path: KeyPath | null } {
  const spelled = has(b.fm, 'final_output') ? 'final_output' : has(b.fm, 'output_schema') ? 'output_schema' : undefined;
  if (spelled) return { ref: contractRef(b.fm[spelled], b.artifacts), path: [spelled] };
  const phases = obj(b.fm.phases);
  const own = terminal.find((p) => has(phases, p) && has(obj(phases[p]), 'output_schema'));
  if (own !== undefined) return { ref: contractRef(obj(phases[own]).output_schema, b.artifacts), path: ['phases', own, 'output_schema'] };
  return { ref: { kind: 'none' }, path: null };
}

const withInvalid = (label: string, m: Marked) => (m.invalid ? `${label} invalid` : label);

/** The diagram of an analysed skill; null when there is no frontmatter mapping to draw. */
export function diagramOf(analysis: SkillAnalysis): DiagramModel | null {
  const { frontmatter: fm, source, graph } = analysis;
  if (!fm || !source || !graph) return null;
  const terminalNames = graph.phases.filter((p) => graph.terminal.has(p));
  const entry = graph.entry !== undefined && graph.successors.has(graph.entry) ? graph.entry : null;
  const b: Build = {
    fm,
    source,
    artifacts: obj(fm.artifacts),
    regions: [],
    targets: new Map(),
    artifactUsers: new Map(),
    terminalIds: terminalNames.map((p) => `phase:${p}`),
    entryId: entry === null ? null : `phase:${entry}`,
    hasPostprocessor: has(fm, 'postprocessor'),
  };
  const llm = llmContractOf(b, terminalNames);
  const stages = buildStages(b);
  const stageGroups = groupStages(stages);

  // ---- phases
  const graphPairs = pairsAt(source, ['graph']);
  const phasePairs = pairsAt(source, ['phases']);
  // a successor named in `graph` belongs to that phase: a cursor on it selects it
  const mentions = new Map<string, Span[]>();
  for (const pair of graphPairs.values()) {
    for (const item of isSeq(pair.value) ? pair.value.items : []) {
      if (!isScalar(item) || typeof item.value !== 'string') continue;
      const span = source.spanOfNode(item);
      if (!span) continue;
      const list = mentions.get(item.value);
      if (list) list.push(span);
      else mentions.set(item.value, [span]);
    }
  }
  const phasesFm = obj(fm.phases);
  const reached = new Set(graph.order);
  const order = [...graph.order, ...graph.phases.filter((p) => !reached.has(p))];
  const phaseNodes = order.map((name): PhaseDiagramNode => {
    const id = `phase:${name}` as const;
    const settings = has(phasesFm, name) ? obj(phasesFm[name]) : {};
    const isTerminal = graph.terminal.has(name);
    const graphPair = graphPairs.get(name);
    const phasePair = phasePairs.get(name);
    for (const pair of [graphPair, phasePair]) {
      const span = pair ? source.spanOfPair(pair) : undefined;
      if (span) b.regions.push({ id, span });
    }
    for (const span of mentions.get(name) ?? []) b.regions.push({ id, span });
    const keySpan = (pair: Pair | undefined) => (pair && !isAlias(pair.key) ? source.spanOfNode(pair.key) : undefined);
    const input: ContractRef = has(settings, 'input_schema') ? contractRef(settings.input_schema, b.artifacts) : { kind: 'any' };
    const output: ContractRef = has(settings, 'output_schema')
      ? contractRef(settings.output_schema, b.artifacts)
      : isTerminal
        ? llm.ref
        : { kind: 'any' };
    usesArtifact(b, id, input);
    usesArtifact(b, id, output);
    const node: PhaseDiagramNode = {
      id,
      kind: 'phase',
      name,
      label: `${nodeWords(id)}${name === entry ? ' (entry)' : ''}`,
      isEntry: name === entry,
      isTerminal,
      isReachable: reached.has(name),
      successors: graph.successors.get(name) ?? [],
      tools: strings(settings.tools),
      input,
      output,
      maxRounds: typeof settings.max_rounds === 'number' ? settings.max_rounds : DEFAULT_MAX_ROUNDS,
      hasPrompt: analysis.body !== undefined && has(analysis.body.prompts, name),
      preprocessor: [],
      stages: stageGroups,
      invalid: false,
      problems: [],
      span: keySpan(phasePair) ?? keySpan(graphPair) ?? mentions.get(name)?.[0] ?? source.locate(['graph'], 'key'),
    };
    register(b, id, node);
    node.preprocessor = buildSteps(b, obj(settings.preprocessor).steps, ['phases', name, 'preprocessor', 'steps'], {
      idHead: `pre:${name}:`,
      numberHead: '',
      alsoMarks: [id],
    });
    return node;
  });

  // ---- the postprocessor chain and the caller contract
  const post = obj(fm.postprocessor);
  const postSteps = buildSteps(b, post.steps, ['postprocessor', 'steps'], { idHead: 'post:', numberHead: '', alsoMarks: [] });
  const contractPath: KeyPath | null = b.hasPostprocessor ? ['postprocessor', 'output_schema'] : llm.path;
  const contract: ContractDiagramNode = {
    id: 'contract',
    kind: 'contract',
    label: nodeWords('contract'),
    contract: b.hasPostprocessor ? (has(post, 'output_schema') ? contractRef(post.output_schema, b.artifacts) : { kind: 'none' }) : llm.ref,
    invalid: false,
    problems: [],
    span: contractPath ? source.locate(contractPath, 'key') : source.topSpan(),
  };
  // a terminal phase's own output_schema is that phase's text, not the contract's
  const contractPair = contractPath && contractPath[0] !== 'phases' ? source.pairAt(contractPath) : undefined;
  const contractRegion = contractPair ? source.spanOfPair(contractPair) : undefined;
  if (contractRegion) b.regions.push({ id: 'contract', span: contractRegion });
  register(b, 'contract', contract);
  usesArtifact(b, 'contract', contract.contract);

  // ---- edges
  const edges: DiagramEdge[] = [];
  const edge = (source: string, target: string, kind: DiagramEdge['kind'], label?: string) =>
    edges.push({ id: `${source}->${target}`, source, target, kind, ...(label !== undefined ? { label } : {}) });
  for (const p of phaseNodes) {
    for (const s of p.successors) edge(p.id, `phase:${s}`, 'transition', p.successors.length > 1 ? `next = ${s}` : undefined);
  }
  const chainStart = postSteps.length ? postSteps[0].id : contract.id;
  for (const p of phaseNodes) if (p.isTerminal) edge(p.id, chainStart, 'finish');
  postSteps.forEach((s, i) => edge(s.id, i + 1 < postSteps.length ? postSteps[i + 1].id : contract.id, 'chain'));

  // ---- problems, then the labels that depend on them
  const unplaced = placeProblems(b, analysis.diagnostics);
  for (const { marked } of b.targets.values()) {
    marked.invalid = marked.problems.some((p) => p.severity === 'error');
    const m = marked as Marked & { label: string };
    m.label = withInvalid(m.label, marked);
  }

  const nodes: DiagramNode[] = [...phaseNodes, ...postSteps.map((s): StepDiagramNode => ({ ...s, kind: 'step' })), contract];
  // `entry: 5` or `entry: [a]` names no phase either (the schema says what it must be): said as written
  const named = graph.entry ?? (has(fm, 'entry') && fm.entry !== null ? JSON.stringify(fm.entry) : null);
  const entryAmiss = entry === null && graph.phases.length ? { named } : null;
  return { skill: str(fm.name) ?? null, entry, entryAmiss, nodes, edges, stages, unplaced, regions: b.regions };
}

const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);

/** Whether `a` is more specific than `b` (regions nest or are disjoint: the inner one starts later, or ends sooner). */
function isInner(a: Span, b: Span): boolean {
  if (a.line !== b.line || a.column !== b.column) return before(b.line, b.column, a.line, a.column);
  return (a.endLine !== b.endLine || a.endColumn !== b.endColumn) && before(a.endLine, a.endColumn, b.endLine, b.endColumn);
}

/**
 * The node or item whose declaration holds a (1-based) position of skill.md:
 * the innermost region (a preprocessor step inside `phases.P`, not the
 * phase), or null. A position just after a region's last character is still
 * inside it (where the cursor sits after typing).
 */
export function nodeAt(model: DiagramModel, line: number, column: number): string | null {
  let best: DiagramRegion | undefined;
  for (const r of model.regions) {
    const s = r.span;
    if (!before(s.line, s.column, line, column) || !before(line, column, s.endLine, s.endColumn)) continue;
    if (!best || isInner(s, best.span)) best = r;
  }
  return best?.id ?? null;
}

/** The items drawn inside a node: a phase's preprocessor steps and stages, a step's nested steps. */
export function itemsOf(node: DiagramNode): readonly (StepItem | StageItem)[] {
  if (node.kind === 'phase') return [...node.preprocessor, ...node.stages.flatMap((g) => g.items)];
  return node.kind === 'step' ? (node.steps ?? []) : [];
}
