/**
 * The diagram model's types (diagram.ts builds it; the React Flow drawing in
 * components/diagram reads it). Plain data: it crosses from the analysis to
 * the UI as is.
 *
 * Owns: the shapes, and what each field means. Labels are accessible names
 * and a contract with the acceptance tests: `phase <name>` (+ ` (entry)`),
 * `step <n> <type>` (nested `step <n>/<m> <type>`), `<phase> preprocessor
 * step <n> <type>`, `caller contract`, `stage <name> on <rung>` (+ `
 * refused: <effects> not granted`), each + ` invalid` when an error is
 * attached.
 */
import type { ContractRef } from './diagram-contracts';
import type { FrontmatterSource, Span } from './source';

export type NodeProblem = {
  severity: 'error' | 'warning';
  rule: string;
  message: string;
  line: number;
  column: number;
  /** the diagnostic's frontmatter key path (`postprocessor.steps[1].module`) */
  path: string;
};

export type Marked = {
  /** some error-severity diagnostic is attached (warnings are listed but do not count) */
  invalid: boolean;
  problems: NodeProblem[];
  /** where selecting it puts the editor's cursor (whole-file, 1-based, end exclusive) */
  span: Span;
};

export type StepItem = Marked & {
  id: string;
  /** 0-based position in its list (the kernel's position `__post__/<index>` for a postprocessor step) */
  index: number;
  /** the step type as written ('' when there is none) */
  type: string;
  label: string;
  /** `rendering.py : to_html`, `op file/read`, `schema post`, `over items → out`, … */
  detail: string;
  onError: 'fail' | 'skip' | 'empty';
  into: string | null;
  pure: boolean;
  /** an iterate step's nested steps */
  steps?: StepItem[];
};

export type StageItem = Marked & {
  /** `cap:<i>`, i its index in `capabilities` */
  id: string;
  index: number;
  name: string;
  /** the rung as written ('' when there is none) */
  rung: string;
  uses: string;
  /** what it asks for: declared, or a builtin's defaults */
  effects: string[];
  /** asked but not granted by permissions.effects */
  missing: string[];
  /** the kernel refuses it at run time (some effect not granted) */
  refused: boolean;
  label: string;
};

export type StageGroup = { rung: string; items: StageItem[] };

export type PhaseDiagramNode = Marked & {
  id: `phase:${string}`;
  kind: 'phase';
  name: string;
  label: string;
  isEntry: boolean;
  isTerminal: boolean;
  isReachable: boolean;
  successors: string[];
  tools: string[];
  input: ContractRef;
  output: ContractRef;
  maxRounds: number;
  hasPrompt: boolean;
  preprocessor: StepItem[];
  /** the skill's capabilities by rung (ladder order, non-empty rungs; unknown rungs last): the same items in every phase */
  stages: StageGroup[];
};

export type StepDiagramNode = StepItem & { kind: 'step' };

export type ContractDiagramNode = Marked & { id: 'contract'; kind: 'contract'; label: string; contract: ContractRef };

export type DiagramNode = PhaseDiagramNode | StepDiagramNode | ContractDiagramNode;

export type DiagramEdge = { id: string; source: string; target: string; kind: 'transition' | 'finish' | 'chain'; label?: string };

export type DiagramRegion = { id: string; span: Span };

export type DiagramModel = {
  skill: string | null;
  /** the entry phase, when `entry` names a phase */
  entry: string | null;
  /**
   * when there are phases and `entry` names none of them (`named`: what it says, null when there is no
   * `entry`): no phase is reached, every one is drawn unreachable, and the diagram says why
   */
  entryAmiss?: { named: string | null } | null;
  /** phases (breadth-first from entry, then the unreachable ones), postprocessor steps, the caller contract */
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  /** every capability, in declaration order (the objects each phase's `stages` holds) */
  stages: StageItem[];
  /** diagnostics that belong to no node (body findings, `name`, `permissions`, …) */
  unplaced: NodeProblem[];
  regions: DiagramRegion[];
};

/** What the problem placer needs to know about the model being built. */
export type Build = {
  fm: Record<string, unknown>;
  source: FrontmatterSource;
  artifacts: Record<string, unknown>;
  regions: DiagramRegion[];
  /** every node and item that can hold problems, with the ids a problem there also marks */
  targets: Map<string, { marked: Marked; alsoMarks: string[] }>;
  /** artifact name → the ids whose contract (or validate schema) names it */
  artifactUsers: Map<string, Set<string>>;
  terminalIds: string[];
  entryId: string | null;
  hasPostprocessor: boolean;
};
