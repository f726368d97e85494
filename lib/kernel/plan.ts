/**
 * The compiled plan of a skill: what lib/skill produces from a valid skill.md
 * and what the kernel runs. Plain data plus the builtin handlers bound by name.
 *
 * Owns: the ladder order (PHASE_LADDER), the shape of phases, stages, processor
 * steps and grants. Does not: parse or validate (lib/skill), or execute
 * (runner.ts). Everything here is already resolved: schema references are
 * replaced by the schemas they name, module paths are absolute, defaults are
 * filled in, so the kernel never re-reads skill.md.
 */
import type { Json, JsonObject, JsonSchema } from './json';
import type { Diagnostic } from './errors';

export const PHASE_LADDER = ['prompt-assembly', 'post-model', 'pre-tool', 'post-tool', 'finalize'] as const;
export type Rung = (typeof PHASE_LADDER)[number];

/** The reserved pseudo-phase of the postprocessor. */
export const POST_PHASE = '__post__';

export type OnError = 'fail' | 'skip' | 'empty';

type StepCommon = {
  /** position in its chain, 0-based */
  index: number;
  onError: OnError;
  /** store the step's result under this key instead of shallow-merging it */
  into?: string;
  /** the empty value of the `into` target's schema type (only meaningful with on_error: empty) */
  emptyValue: Json;
  /** 1-based line of the step in skill.md, for messages */
  line: number;
};

export type ValidateStep = StepCommon & { type: 'validate'; schema: JsonSchema; schemaName?: string; path?: string };
export type RunOpStep = StepCommon & { type: 'run_op'; op: string; args: JsonObject };
export type IterateStep = StepCommon & { type: 'iterate'; over: string; steps: StepSpec[]; into: string };
export type LintPlanStep = StepCommon & { type: 'lint_plan'; plan: string; rules: string[] };
export type CodeStep = StepCommon & {
  type: 'python' | 'node';
  /** as written in skill.md, e.g. ./rendering.py */
  module: string;
  /** absolute path inside the bundle */
  modulePath: string;
  function: string;
  timeoutMs: number;
  /** the author promises no effect outside the return value */
  pure: boolean;
};
export type StepSpec = ValidateStep | RunOpStep | IterateStep | LintPlanStep | CodeStep;
export type StepType = StepSpec['type'];

export type ProcessorPlan = {
  steps: StepSpec[];
  /** the schema the chain's result must satisfy (phase input_schema / caller contract) */
  outputSchema: JsonSchema;
};

export type StageBinding =
  | { kind: 'builtin'; name: string }
  | { kind: 'module'; module: string; modulePath: string; exportName: string };

export type StageSpec = {
  /** the stage name (unique in the skill) */
  name: string;
  /** the capability that declared it (the same name unless a capability declares several stages) */
  capability: string;
  rung: Rung;
  binding: StageBinding;
  /** effects the handler needs (asked) */
  effects: string[];
  with: JsonObject;
  /** 1-based line of its declaration in skill.md, for messages and the inspector's link to the source */
  line?: number;
};

export type PhasePlan = {
  name: string;
  successors: string[];
  isTerminal: boolean;
  /** what the preprocessor must yield (null: anything) */
  inputSchema: JsonSchema | null;
  /** the phase's finish contract */
  outputSchema: JsonSchema;
  /** ops the model may call in this phase */
  tools: string[];
  maxRounds: number;
  /** the `## <phase>` section of the body */
  prompt: string;
  preprocessor: ProcessorPlan | null;
};

export type Plan = {
  name: string;
  description: string;
  /** absolute path of the bundle folder */
  bundleDir: string;
  /** sha256 of the skill.md text */
  skillHash: string;
  entry: string;
  /** phase names in graph order (breadth-first from entry) */
  order: string[];
  phases: Record<string, PhasePlan>;
  /** shared system prompt: body text before the first phase heading */
  system: string;
  /** the LLM finish contract of the skill */
  llmContract: JsonSchema;
  /** what the caller receives (= llmContract without a postprocessor) */
  callerContract: JsonSchema;
  /** all stages, sorted by ladder rung then declaration order */
  stageProgram: StageSpec[];
  /** permissions.effects */
  effectGrants: ReadonlySet<string>;
  /** permissions.ops */
  permittedOps: ReadonlySet<string>;
  postprocessor: ProcessorPlan | null;
  artifacts: Record<string, JsonSchema>;
  warnings: Diagnostic[];
};
