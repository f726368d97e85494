/**
 * The bundle of `bench/fixtures/loop_skill` with a model script of `loops` loops
 * (work, then check, until check says `next: done`), for a run of any length:
 * 15 events per loop, so 666 loops make a run of 10,000 events.
 * `failAtVisit: k` makes the run fail late: work's preprocessor (validate
 * `task`) refuses the n that check hands the k-th visit of work, so that step
 * fails (`work#k/pre/0 validate failed`) and the run stops there.
 * Files only (fs and yaml): the browser tests write it too, then save it through the API.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'loop_skill');

/** events a run of `loops` loops records: run_started, 10 per visit of work, 5 per check, 8 for done and the end */
export const eventsForLoops = (loops: number) => 1 + loops * 15 + 8;
export const loopsForEvents = (events: number) => Math.max(1, Math.round((events - 9) / 15));

export function writeLoopBundle(loops: number, opts: { failAtVisit?: number; dir?: string } = {}): string {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 'sc-loop-'));
  cpSync(FIXTURE, dir, { recursive: true });
  if (opts.failAtVisit) {
    // visit k of work is handed n = k - 1 (the input's 0, then each check's count)
    const skill = path.join(dir, 'skill.md');
    const text = readFileSync(skill, 'utf8');
    const task = '  task:\n    type: object\n    properties:\n      n: { type: integer }';
    if (!text.includes(task)) throw new Error('loop_skill/skill.md no longer declares `task` as loop-bundle.ts expects');
    writeFileSync(skill, text.replace(task, `  task:\n    type: object\n    properties:\n      n: { type: integer, maximum: ${opts.failAtVisit - 2} }`));
  }
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
