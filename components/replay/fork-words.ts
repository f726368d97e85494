// What the value at a fork point is, in words, and what an edit of it must be (the server checks
// again; this is so the editor can say it first).

import { FORK_POINT_FINISH, FORK_POINT_INPUT } from '@/lib/views';

export type PointFacts = {
  /** "the finish artifact", "the model turn at draft/r2/model", … */
  what: string;
  /** what becomes of the edit */
  effect: string;
  /** the value must be a JSON object */
  isObject: boolean;
};

export function pointFacts(at: string, kind: string): PointFacts {
  if (at === FORK_POINT_INPUT) return { what: 'the run input', effect: 'The whole run runs again, live, from this input.', isObject: true };
  if (at === FORK_POINT_FINISH) return { what: 'the finish artifact', effect: 'The postprocessor runs on this artifact; nothing before it runs again.', isObject: true };
  if (/\/(pre|post)-tool\/\d+$/.test(at) || at.endsWith('/input')) {
    const isArgs = /\/pre-tool\/\d+$/.test(at);
    if (kind === 'tool') return { what: isArgs ? `the arguments of tool call ${at}` : `the outcome of tool call ${at}`, effect: isArgs ? 'The tool call runs with these arguments.' : 'The run goes on with this outcome; the call is not made again.', isObject: isArgs };
    return { what: `what step ${at.replace(/\/input$/, '')} is given`, effect: 'The step runs on this value, and the run goes on live.', isObject: true };
  }
  switch (kind) {
    case 'input':
      return { what: `the input of phase ${at}`, effect: 'The phase starts from this value and runs live.', isObject: true };
    case 'model':
      return { what: `the model turn at ${at}`, effect: 'The run goes on from this turn ({text, toolCalls, finish}); the model is not asked for it.', isObject: true };
    case 'stage':
      return { what: `the contribution of stage ${at}`, effect: 'The run goes on with this contribution; the stage does not run.', isObject: true };
    case 'processor':
      return { what: `the result of step ${at}`, effect: 'The step does not run: this is its result, and the steps after it run live.', isObject: false };
    case 'tool':
      return { what: `the outcome of tool call ${at}`, effect: 'The run goes on with this outcome; the call is not made again.', isObject: false };
    default:
      return { what: `the value at ${at}`, effect: 'The run goes on live from this value.', isObject: false };
  }
}

/** a model turn with nothing in it yet: what the editor opens with at a turn the run never got (its call failed) */
export const EMPTY_MODEL_TURN = { text: '', toolCalls: [], finish: null };

/**
 * The text the fork editor opens with: the value at the point, but at a model turn the run never
 * got (the call failed: there is no turn, `null`) an empty turn to fill in — `null` opened the
 * editor on an error ("must be a JSON object, not null") before anything was typed.
 */
export function startText(point: { kind: string; value: unknown }): string {
  const value = point.kind === 'model' && point.value === null ? EMPTY_MODEL_TURN : point.value;
  return JSON.stringify(value, null, 2);
}
