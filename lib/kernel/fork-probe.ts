/**
 * The value at a fork point, found before anything of the fork runs: the
 * fork is driven on a throwaway in-memory store with its parent's recording,
 * and stops when it reaches its point (recording.ts), handing back the value
 * there and the check an edit of it must pass. Everything before the point
 * is answered from the recording, so a probe calls no model and runs no code
 * (its model and sandbox refuse, to be sure).
 *
 * So a fork is refused — a 4xx, exit 2 — before its run is recorded when its
 * point is not one this version of the skill reaches on the recording, when a
 * step before it changed, or when the edited value does not fit.
 *
 * Owns: the probe. Does not: apply `--set` edits (the caller does, with
 * fork-edits.ts) or start the fork (runner.ts).
 */
import { ForkPointError } from './errors';
import type { Json, JsonObject } from './json';
import type { Plan } from './plan';
import type { CodeSandbox, ModelPort, RunEvent } from './ports';
import type { KernelDeps } from './context';
import { EVENT } from './events';
import { MemoryStore } from './memory-store';
import { startRun } from './runner';
import { ForkProbeReached } from './recording';
import { objectCheck, RUN_INPUT_POINT, type EditCheck, type ForkPoint } from './fork-edits';
import { relativeErrorValue, relativeToBundle } from './error-info';
import { bundleRootsOf } from './provenance';

export type ForkProbe = {
  /** the value at the point (a step's output or input, a phase input, the finish artifact, the run input) */
  base: Json;
  /** what an edit must pass; null where there is nothing to edit (a rerun of a step) */
  check: EditCheck | null;
  /** the kind of step at the point, or `input` for a value flowing in */
  kind: string;
};

/** Refuses: a probe never asks a model nor runs code (everything before the point is answered). */
export const NO_MODEL: ModelPort = {
  name: 'none',
  async invoke() {
    throw new Error('no model may be called here: this step should have been answered from the recording');
  },
};

export const NO_SANDBOX: CodeSandbox = {
  async call() {
    throw new Error('no code may run here: this step should have been answered from the recording');
  },
  async close() {},
};

export async function probeForkPoint(
  plan: Plan,
  deps: Pick<KernelDeps, 'clock' | 'ids'>,
  opts: { input: JsonObject; parentRunId: string; events: readonly RunEvent[]; point: ForkPoint },
): Promise<ForkProbe> {
  const { point } = opts;
  if (point.at === RUN_INPUT_POINT) {
    const entry = plan.phases[plan.entry];
    return { base: opts.input, check: objectCheck('the run input', entry?.preprocessor ? null : entry?.inputSchema), kind: 'input' };
  }
  let outcome;
  try {
    outcome = await startRun(plan, { store: new MemoryStore(), clock: deps.clock, ids: deps.ids, model: NO_MODEL, sandbox: NO_SANDBOX }, {
      input: opts.input,
      skillText: '',
      derivation: { mode: 'fork', parentRunId: opts.parentRunId, events: opts.events, point: { at: point.at, target: point.target }, probe: true },
    });
  } catch (e) {
    if (e instanceof ForkProbeReached) return { base: e.base, check: e.check, kind: e.kind };
    throw e;
  }
  const err = outcome.error;
  // the replay's error names the bundle copies it and the run executed from: said relative, as the run's page says it
  const roots = [plan.bundleDir, ...bundleRootsOf(opts.events)];
  const said = (message: unknown) => relativeToBundle(String(message), roots);
  if (err?.code === 'fork_prefix_changed') throw new ForkPointError('fork_prefix_changed', said(err.message), relativeErrorValue(err, roots) as JsonObject);
  const positions = forkPositions(opts.events);
  throw new ForkPointError(
    'fork_point_unknown',
    `Run ${opts.parentRunId} has no ${point.target === 'input' ? 'value flowing in' : 'step'} at ${point.at} that this version of the skill reaches${err ? ` (replayed, it stops first: ${said(err.message)})` : ''}. ` +
      `Positions of the run: ${positions.slice(0, 40).join(', ')}${positions.length > 40 ? ` … (${positions.length} in all)` : ''}.`,
    { position: point.at, positions },
  );
}

/** The fork points a recorded run offers, in its order: the input, phase starts, its steps, the postprocessor's start. */
export function forkPositions(events: readonly RunEvent[]): string[] {
  const out: string[] = [RUN_INPUT_POINT];
  const seen = new Set(out);
  const add = (p: string) => {
    if (!seen.has(p)) out.push(p);
    seen.add(p);
  };
  for (const e of events) {
    if (e.type === EVENT.phaseStarted) add(Number(e.data.visit) > 1 ? `${String(e.data.phase)}#${String(e.data.visit)}` : String(e.data.phase));
    else if (e.type === EVENT.artifactPersisted) add('__post__');
    else if (e.type === EVENT.stepCompleted) add(String(e.data.position));
  }
  return out;
}
