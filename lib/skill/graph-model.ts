/**
 * A plain data model of a compiled skill for drawing: the phase graph, each
 * phase's stages by rung, each phase's preprocessor chain, and the
 * postprocessor chain as its own lane, with `on_error` on every step and the
 * stages that would be refused (effects not granted) flagged.
 *
 * Owns: node ids (`phase:<name>`, `stage:<phase>:<stage>`, `pre:<phase>:<i>`,
 * `post:<i>`), labels (they double as accessible names) and lanes. Does not:
 * lay anything out or know about React Flow — positions are the app's job
 * (dagre/elk).
 */
import type { OnError, Plan, Rung, StageSpec, StepSpec, StepType } from '../kernel/plan';
import { PHASE_LADDER } from '../kernel/plan';

export type StepSummary = {
  index: number;
  stepType: StepType;
  label: string;
  onError: OnError;
  into?: string;
  /** 1-based line in skill.md */
  line: number;
  pure: boolean;
  /** the nested steps of an iterate step */
  steps?: StepSummary[];
};

export type PhaseNode = {
  id: string;
  kind: 'phase';
  label: string;
  lane: 'phases';
  phase: string;
  /** position in breadth-first order from entry */
  order: number;
  isEntry: boolean;
  isTerminal: boolean;
  successors: string[];
  tools: string[];
  maxRounds: number;
  hasPrompt: boolean;
  preprocessorSteps: number;
};

export type StepNode = StepSummary & {
  id: string;
  kind: 'pre-step' | 'post-step';
  /** `pre:<phase>` or `postprocessor` */
  lane: string;
  /** the phase a preprocessor step runs before; absent for the postprocessor */
  phase?: string;
};

export type StageNode = {
  id: string;
  kind: 'stage';
  label: string;
  /** `stages:<phase>` */
  lane: string;
  phase: string;
  stage: string;
  capability: string;
  rung: Rung;
  /** index of the rung in PHASE_LADDER */
  rungIndex: number;
  /** `builtin:<name>` or `./file#export` */
  uses: string;
  effects: string[];
  /** effects asked but not granted by permissions.effects */
  missingEffects: string[];
  /** the stage would be refused at run time */
  isRefused: boolean;
};

export type GraphNode = PhaseNode | StepNode | StageNode;

export type GraphEdge = {
  id: string;
  source: string;
  target: string;
  /** phase → phase; a step to the next (or a last preprocessor step to its phase); terminal phase → postprocessor; phase → its stage */
  kind: 'transition' | 'pre-chain' | 'post-chain' | 'finish' | 'stage';
  label?: string;
};

export type GraphLane = { id: string; label: string; kind: 'phases' | 'preprocessor' | 'stages' | 'postprocessor'; phase?: string };

export type GraphModel = { skill: string; entry: string; nodes: GraphNode[]; edges: GraphEdge[]; lanes: GraphLane[] };

function stepLabel(s: StepSpec): string {
  switch (s.type) {
    case 'validate':
      return `validate ${s.schemaName ?? 'inline schema'}${s.path ? ` at ${s.path}` : ''}`;
    case 'run_op':
      return `run_op ${s.op}`;
    case 'iterate':
      return `iterate over ${s.over} into ${s.into}`;
    case 'lint_plan':
      return `lint_plan ${s.plan}`;
    default:
      return `${s.type} ${s.module.replace(/^\.\//, '')}:${s.function}`;
  }
}

function summary(s: StepSpec): StepSummary {
  const pure = s.type === 'validate' || s.type === 'lint_plan' || ((s.type === 'python' || s.type === 'node') && s.pure);
  return {
    index: s.index,
    stepType: s.type,
    label: `${stepLabel(s)} (on_error: ${s.onError})`,
    onError: s.onError,
    ...(s.into !== undefined ? { into: s.into } : {}),
    line: s.line,
    pure: s.type === 'iterate' ? s.steps.every((x) => summary(x).pure) : pure,
    ...(s.type === 'iterate' ? { steps: s.steps.map(summary) } : {}),
  };
}

function usesOf(st: StageSpec): string {
  return st.binding.kind === 'builtin' ? `builtin:${st.binding.name}` : `${st.binding.module}#${st.binding.exportName}`;
}

export function graphModel(plan: Plan): GraphModel {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const lanes: GraphLane[] = [{ id: 'phases', label: 'Phases', kind: 'phases' }];
  const edge = (source: string, target: string, kind: GraphEdge['kind'], label?: string) =>
    edges.push({ id: `${source}->${target}`, source, target, kind, ...(label ? { label } : {}) });

  plan.order.forEach((name, order) => {
    const p = plan.phases[name];
    const id = `phase:${name}`;
    nodes.push({
      id,
      kind: 'phase',
      label: `Phase ${name}${name === plan.entry ? ' (entry)' : ''}${p.isTerminal ? ' (terminal)' : ''}`,
      lane: 'phases',
      phase: name,
      order,
      isEntry: name === plan.entry,
      isTerminal: p.isTerminal,
      successors: p.successors,
      tools: p.tools,
      maxRounds: p.maxRounds,
      hasPrompt: p.prompt.length > 0,
      preprocessorSteps: p.preprocessor?.steps.length ?? 0,
    });
    for (const next of p.successors) edge(id, `phase:${next}`, 'transition', p.successors.length > 1 ? `next = ${next}` : undefined);

    if (p.preprocessor && p.preprocessor.steps.length) {
      const lane = `pre:${name}`;
      lanes.push({ id: lane, label: `Preprocessor of ${name}`, kind: 'preprocessor', phase: name });
      p.preprocessor.steps.forEach((s, i) => {
        nodes.push({ ...summary(s), id: `${lane}:${i}`, kind: 'pre-step', lane, phase: name });
        edge(`${lane}:${i}`, i + 1 < p.preprocessor!.steps.length ? `${lane}:${i + 1}` : id, 'pre-chain');
      });
    }

    if (plan.stageProgram.length) {
      const lane = `stages:${name}`;
      lanes.push({ id: lane, label: `Stages of ${name}`, kind: 'stages', phase: name });
      for (const st of plan.stageProgram) {
        const missingEffects = st.effects.filter((e) => !plan.effectGrants.has(e));
        const sid = `stage:${name}:${st.name}`;
        nodes.push({
          id: sid,
          kind: 'stage',
          label: `Stage ${st.name} on ${st.rung}${missingEffects.length ? ` (refused: ${missingEffects.join(', ')} not granted)` : ''}`,
          lane,
          phase: name,
          stage: st.name,
          capability: st.capability,
          rung: st.rung,
          rungIndex: PHASE_LADDER.indexOf(st.rung),
          uses: usesOf(st),
          effects: st.effects,
          missingEffects,
          isRefused: missingEffects.length > 0,
        });
        edge(id, sid, 'stage');
      }
    }
  });

  if (plan.postprocessor && plan.postprocessor.steps.length) {
    lanes.push({ id: 'postprocessor', label: 'Postprocessor', kind: 'postprocessor' });
    const steps = plan.postprocessor.steps;
    steps.forEach((s, i) => {
      nodes.push({ ...summary(s), id: `post:${i}`, kind: 'post-step', lane: 'postprocessor' });
      if (i + 1 < steps.length) edge(`post:${i}`, `post:${i + 1}`, 'post-chain');
    });
    for (const name of plan.order) if (plan.phases[name].isTerminal) edge(`phase:${name}`, 'post:0', 'finish');
  }
  return { skill: plan.name, entry: plan.entry, nodes, edges, lanes };
}
