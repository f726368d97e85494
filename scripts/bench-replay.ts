// npm run bench:replay — what a replay costs, against running the same run's processor steps alone,
// in memory; one JSON line.
//
// The recorded run has STEPS steps: PHASES phases of ROUNDS tool rounds (a model turn, TOOLS file/read
// calls, a post-model builtin stage) and a finish round each — the shape max_rounds allows — then a
// postprocessor of the rest, `validate` steps: the cheapest processor step there is, so the replay's
// own overhead (answering from the recording, recording the answers, comparing the two logs step by
// step) weighs as much as it ever can.
//   baselineMs   the postprocessor's steps alone: a run of them over the same finish artifact, on the
//                in-memory store (what they cost to re-run, with nothing recorded to answer)
//   replayMs     the replay: the whole run again with its parent's log as the second memo (model turns
//                and reads answered, stages and processor steps really run), on the in-memory store,
//                plus comparing the two logs (`compareMs` of it)
//   recordMs     the recorded run itself, live, on the in-memory store (for scale)
//   ratio        replayMs / baselineMs (target ≤ 2)
//   postgres     with DATABASE_URL: the same replay written to Postgres, in wall time (waiting on the
//                database is its cost): `replayWallMs`, and `ratio` against the baseline's wall time; else null
// Each figure is CPU time (user + system, of this process), the best of REPS interleaved repetitions:
// the machine is shared, and wall time there measures the neighbours as much as the work.
// BENCH_TINY=1 (or --tiny): 100 steps, two repetitions — the size `npm test` runs every bench at.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, playModel, post, stage } from '../lib/kernel/testing';
import { startRun } from '../lib/kernel/runner';
import { compareLogs } from '../lib/kernel/compare';
import { MemoryStore } from '../lib/kernel/memory-store';
import type { PhasePlan, Plan, StepSpec } from '../lib/kernel/plan';
import type { IdSource, ModelTurn, RunEvent, StorePort } from '../lib/kernel/ports';
import { TINY } from '../bench/tiny';
import { COMPILED } from '../bench/compiled';

const tiny = TINY;
const STEPS = tiny ? 100 : 1000;
const PHASES = tiny ? 2 : 4;
const ROUNDS = tiny ? 2 : 6;
const TOOLS = 2;
/** per phase: each tool round is a model turn, its calls and a stage; the finish round a turn and a stage */
const PHASE_STEPS = ROUNDS * (2 + TOOLS) + 2;
const PROCESSOR_STEPS = STEPS - PHASES * PHASE_STEPS;
const REPS = tiny ? 2 : 21;

const best = (xs: number[]) => Math.min(...xs);
/** CPU milliseconds this process has used (user + system): the work done, whatever else the machine runs */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const wall = () => Number(process.hrtime.bigint()) / 1e6;
/** wall time where waiting is part of the cost (a store over the network) */
let hr = cpu;

const root = mkdtempSync(path.join(tmpdir(), 'sc-bench-replay-'));
writeFileSync(path.join(root, 'notes.txt'), 'The pilot ran in 12 schools with 1,450 students.');
/** the replay's workspace (it writes nothing: every read is answered from the recording) */
const scratch = mkdtempSync(path.join(tmpdir(), 'sc-bench-scratch-'));
const finish = { title: 'A brief', facts: Array.from({ length: 20 }, (_, i) => `fact ${i}`) };

const steps: StepSpec[] = Array.from({ length: PROCESSOR_STEPS }, (_, i) => ({
  index: i,
  type: 'validate',
  onError: 'fail',
  emptyValue: null,
  line: 1,
  schema: { type: 'object', properties: { title: { type: 'string' }, facts: { type: 'array', items: { type: 'string' } } }, required: ['title', 'facts'] },
})) as StepSpec[];

const names = Array.from({ length: PHASES }, (_, i) => `p${i}`);
const phases: Record<string, PhasePlan> = Object.fromEntries(
  names.map((n, i) => [n, phase(n, { tools: ['file/read'], maxRounds: ROUNDS + 1, successors: i + 1 < PHASES ? [names[i + 1]] : [], isTerminal: i + 1 === PHASES, prompt: `phase ${n}` })]),
);
const skill: Plan = plan({
  phases,
  permittedOps: new Set(['file/read']),
  effectGrants: new Set(['fs.read']),
  stageProgram: [{ ...stage('check', 'post-model'), binding: { kind: 'builtin', name: 'unverified_numbers' } }],
  postprocessor: post(steps),
});
const postprocessorOnly: Plan = plan({ postprocessor: post(steps) });

const turns: Record<string, Partial<ModelTurn>[]> = Object.fromEntries(
  names.map((n) => [
    n,
    [
      ...Array.from({ length: ROUNDS }, (_, r) => ({ text: `${n} round ${r}`, toolCalls: Array.from({ length: TOOLS }, (_, k) => ({ id: `c${r}_${k}`, op: 'file/read', args: { path: 'notes.txt' } })) })),
      { finish },
    ],
  ]),
);
/** plays each phase's turns by position (the kernel asks phase by phase, round by round) */
const model = () => ({
  name: 'bench',
  async invoke(req: { phase: string; round: number }) {
    const t = turns[req.phase][req.round - 1];
    return { text: '', toolCalls: [], finish: null, ...structuredClone(t) } as ModelTurn;
  },
});

async function record(): Promise<RunEvent[]> {
  const store = new MemoryStore();
  const out = await startRun(skill, deps(model(), { store, fileRoot: root }), { input: {}, skillText: '', runId: 'recorded' });
  if (out.status !== 'completed') throw new Error(JSON.stringify(out.error));
  const events = await store.readEvents('recorded');
  const recordedSteps = events.filter((e) => e.type === 'step_completed').length;
  if (recordedSteps !== STEPS) throw new Error(`the recorded run has ${recordedSteps} steps, not ${STEPS}`);
  return events;
}

async function baseline(): Promise<number> {
  const t = hr();
  const out = await startRun(postprocessorOnly, deps(playModel([{ finish }])), { input: {}, skillText: '' });
  if (out.status !== 'completed') throw new Error(JSON.stringify(out.error));
  return hr() - t;
}

async function replay(parent: RunEvent[], store: StorePort, ids?: IdSource): Promise<{ ms: number; compareMs: number }> {
  const t = hr();
  const out = await startRun(skill, deps(playModel([]), { store, fileRoot: scratch, ...(ids ? { ids } : {}) }), {
    input: {},
    skillText: '',
    derivation: { mode: 'replay', parentRunId: 'recorded', events: parent },
  });
  const mine = await store.readEvents(out.runId);
  const c0 = hr();
  const cmp = compareLogs(parent, mine);
  const end = hr();
  // (hr is CPU time: what waiting on Postgres costs in wall time is not in it, only the work of the calls)
  if (out.status !== 'completed' || cmp.divergences.length) throw new Error(`the replay is not identical: ${JSON.stringify(cmp.divergences[0] ?? out.error)}`);
  return { ms: end - t, compareMs: end - c0 };
}

async function live(): Promise<number> {
  const t = hr();
  const out = await startRun(skill, deps(model(), { store: new MemoryStore(), fileRoot: root }), { input: {}, skillText: '' });
  if (out.status !== 'completed') throw new Error(JSON.stringify(out.error));
  return hr() - t;
}

async function postgres(parent: RunEvent[]): Promise<{ replayWallMs: number; baselineWallMs: number } | null> {
  if (!process.env.DATABASE_URL) return null;
  const { openStore } = await import('../lib/store');
  const store = await openStore({ databaseUrl: process.env.DATABASE_URL });
  const { randomIds } = await import('../lib/server/system');
  try {
    // the parent is in memory (the replay reads it from its derivation); the replay itself is written to Postgres
    hr = wall;
    const reps: number[] = [];
    const base: number[] = [];
    for (let r = 0; r <= REPS; r++) {
      const x = await replay(parent, store, randomIds);
      const b = await baseline();
      if (r > 0) reps.push(x.ms);
      if (r > 0) base.push(b);
    }
    return { replayWallMs: best(reps), baselineWallMs: best(base) };
  } finally {
    hr = cpu;
    await store.close();
  }
}

async function main(): Promise<void> {
  const parent = await record();
  // warm up the JIT on every path before measuring any
  for (let i = 0; i < (tiny ? 1 : 3); i++) {
    await baseline();
    await replay(parent, new MemoryStore());
    await live();
  }
  const base: number[] = [];
  const rep: number[] = [];
  const cmp: number[] = [];
  const rec: number[] = [];
  for (let r = 0; r < REPS; r++) {
    base.push(await baseline());
    const x = await replay(parent, new MemoryStore());
    rep.push(x.ms);
    cmp.push(x.compareMs);
    rec.push(await live());
  }
  const baselineMs = best(base);
  const replayMs = best(rep);
  const pg = await postgres(parent);
  const round = (n: number) => Math.round(n * 100) / 100;
  console.log(
    JSON.stringify({
      bench: 'replay',
      tiny,
      compiled: COMPILED,
      steps: STEPS,
      processorSteps: PROCESSOR_STEPS,
      answeredSteps: PHASES * (ROUNDS * (1 + TOOLS) + 1),
      stageSteps: PHASES * (ROUNDS + 1),
      baselineMs: round(baselineMs),
      replayMs: round(replayMs),
      compareMs: round(best(cmp)),
      recordMs: round(best(rec)),
      ratio: round(replayMs / baselineMs),
      target: 2,
      postgres: pg ? { replayWallMs: round(pg.replayWallMs), baselineWallMs: round(pg.baselineWallMs), ratio: round(pg.replayWallMs / pg.baselineWallMs) } : null,
    }),
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
