/**
 * A run of any length for the inspector's benchmarks: `bench/fixtures/loop_skill`
 * is a skill that loops: `work` (a tool call, a trimmed result, a finish), then
 * `check` (a finish that says `next: work`), until its model script says `next: done`.
 * `writeLoopBundle` writes the bundle with a script of `visits` visits;
 * `makeLoopRun` runs it through lib/server (a version, its copy, the kernel)
 * on any host — the in-memory store, PGlite or Postgres — and answers the run
 * id and its event count. 15 events per loop: 666 loops make a run of 10,000 events.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Host } from '../lib/server/host';
import { startSkillRun } from '../lib/server/runs/start-run';

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'loop_skill');

/** events a run of `loops` loops records: run_started, 10 per visit of work, 5 per check, 8 for done and the end */
export const eventsForLoops = (loops: number) => 1 + loops * 15 + 8;
export const loopsForEvents = (events: number) => Math.max(1, Math.round((events - 9) / 15));

export function writeLoopBundle(loops: number, dir = mkdtempSync(path.join(tmpdir(), 'sc-loop-'))): string {
  cpSync(FIXTURE, dir, { recursive: true });
  const turns: unknown[] = [];
  for (let i = 0; i < loops; i++) {
    // a fresh object per turn: the YAML writer would make a shared one an alias, which scripts do not take
    const usage = () => ({ input_tokens: 300 + 20 * i, output_tokens: 40 });
    turns.push({ phase: 'work', text: `Reading the notes for step ${i + 1}.`, tool_calls: [{ op: 'file/read', args: { path: 'notes.txt' } }], usage: usage() });
    turns.push({ phase: 'work', finish: { n: i + 1, note: `step ${i + 1} done` }, usage: usage() });
    turns.push({ phase: 'check', finish: { n: i + 1, next: i + 1 < loops ? 'work' : 'done' }, usage: usage() });
  }
  turns.push({ phase: 'done', finish: { title: `${loops} steps`, body: `All ${loops} steps are done. Questions to ops@example.org.` } });
  writeFileSync(path.join(dir, 'model.yaml'), stringify({ turns }));
  return dir;
}

export async function makeLoopRun(host: Host, opts: { events?: number; loops?: number } = {}): Promise<{ runId: string; events: number; bundle: string }> {
  const bundle = writeLoopBundle(opts.loops ?? loopsForEvents(opts.events ?? 10_000));
  const outcome = await startSkillRun(host, { bundle, input: { n: 0 } });
  if (outcome.status !== 'completed') throw new Error(`the loop run did not complete: ${JSON.stringify(outcome.error)}`);
  return { runId: outcome.runId, events: (await host.store.readEvents(outcome.runId)).length, bundle };
}
