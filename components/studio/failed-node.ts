// Where the skill's last run failed, on its diagram: a run's failure point (the runs list's
// `failedAt`: `<capability>/<stage>` for a stage, a step's position `__post__/2`, `draft/pre/0`,
// `draft#2/pre/1`, nested `__post__/2/0/1`) as the diagram's node and item ids (`post:2`,
// `phase:draft` + `pre:draft:0`, `post:2/1`, `cap:<i>` inside the phase it failed in).
import type { DiagramModel } from '@/lib/skill/diagram';

export type RunFailure = { runId: string; at: string; /** the phase a failed stage ran in, when known (the run's report) */ phase: string | null };

/** what the diagram marks failed: a card (node) and, inside it, an item (a stage chip, a step) */
export type FailedMark = { runId: string; at: string; nodeId: string | null; itemId: string | null };

const POST = '__post__';

/** a point that is a phase rather than a step or stage in it: where a run stopped that no step failed (its model contract, a model turn that did not come) — `draft`, `draft#2`, `draft/r3/model`; `__post__` alone is the postprocessor's */
const PHASE_POINT = /^([^/#]+)(?:#\d+)?(?:\/r\d+\/model)?$/;

/** whether a failure point is a stage's (`<capability>/<stage>`) rather than a processor step's position or a phase */
export const isStagePoint = (at: string): boolean => !at.startsWith(`${POST}/`) && !/^[^/]+\/pre\/\d/.test(at) && !PHASE_POINT.test(at);

export function failedMarkOf(f: RunFailure | null, model: DiagramModel | null): FailedMark | null {
  if (!f || !model) return null;
  const has = (id: string) => model.nodes.some((n) => n.id === id);
  const mark = (nodeId: string | null, itemId: string | null): FailedMark | null => (nodeId || itemId ? { runId: f.runId, at: f.at, nodeId, itemId } : null);
  if (f.at.startsWith(`${POST}/`)) {
    // __post__/<step>[/<element>/<nested step>]…: the card of the top step, the nested step inside it
    const parts = f.at.slice(POST.length + 1).split('/');
    const node = `post:${parts[0]}`;
    if (!has(node)) return null;
    return mark(node, parts.length >= 3 ? `${node}/${parts[parts.length - 1]}` : null);
  }
  const pre = /^([^/#]+)(?:#\d+)?\/pre\/(\d+)/.exec(f.at);
  if (pre) {
    const node = `phase:${pre[1]}`;
    return has(node) ? mark(node, `pre:${pre[1]}:${pre[2]}`) : null;
  }
  const phase = PHASE_POINT.exec(f.at);
  if (phase) return phase[1] !== POST && has(`phase:${phase[1]}`) ? mark(`phase:${phase[1]}`, null) : null;
  const capability = f.at.split('/')[0];
  const stage = model.stages.find((s) => s.name === capability);
  const phaseNode = f.phase !== null && has(`phase:${f.phase}`) ? `phase:${f.phase}` : null;
  return mark(phaseNode, stage?.id ?? null);
}
