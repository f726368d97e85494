/**
 * A run of any length for the inspector's benchmarks: `bench/fixtures/loop_skill`
 * is a skill that loops: `work` (a tool call, a trimmed result, a finish), then
 * `check` (a finish that says `next: work`), until its model script says `next: done`.
 * `writeLoopBundle` writes the bundle with a script of `visits` visits;
 * `makeLoopRun` runs it through lib/server (a version, its copy, the kernel)
 * on any host — the in-memory store, PGlite or Postgres — and answers the run
 * id and its event count. 15 events per loop: 666 loops make a run of 10,000 events.
 * The bundle itself is written by loop-bundle.ts (no server: the browser tests use it too).
 */
import type { Host } from '../lib/server/host';
import { startSkillRun } from '../lib/server/runs/start-run';
import { loopsForEvents, writeLoopBundle } from './loop-bundle';

export { eventsForLoops, loopsForEvents, writeLoopBundle } from './loop-bundle';

/** `failAtVisit`: a step fails there and aborts the run (loop-bundle.ts); else it completes */
export async function makeLoopRun(host: Host, opts: { events?: number; loops?: number; failAtVisit?: number } = {}): Promise<{ runId: string; events: number; bundle: string }> {
  const bundle = writeLoopBundle(opts.loops ?? loopsForEvents(opts.events ?? 10_000), { failAtVisit: opts.failAtVisit });
  const outcome = await startSkillRun(host, { bundle, input: { n: 0 } });
  if (outcome.status !== (opts.failAtVisit ? 'aborted' : 'completed')) throw new Error(`the loop run ended ${outcome.status}: ${JSON.stringify(outcome.error)}`);
  return { runId: outcome.runId, events: (await host.store.readEvents(outcome.runId)).length, bundle };
}
