// npm run -s bench:kernel-run — the kernel's own CPU per run, nothing else: the bench's skills
// (bench-store.ts: a model turn that finishes, then a postprocessor of N steps, pure or
// effectful node steps or workspace/write ops), driven by startRun at concurrency C against a
// store that keeps nothing and answers at once, a sandbox that calls the step function in
// process and a model whose script is parsed once. What it prints is this process's CPU per run
// (`nodeCpuMsPerRun`): the kernel, plus the little these stand-ins add. `--events` prints the
// recorded units of one run instead (deterministic clock and ids), for comparing two versions.
// `--caps N` adds N user capabilities on the post-model rung (each a sandbox call answering nothing,
// prepared as the real sandbox prepares every call): the capability path.
//   --kind pure|effectful   --step node|op   --runs 5000   --steps 5   --caps 0   --concurrency 8   --events
//   --tiny (or BENCH_TINY=1): 20 runs, to check the script works
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compileSkill } from '../lib/skill';
import { startRun } from '../lib/kernel/runner';
import type { KernelDeps } from '../lib/kernel/context';
import type { CodeSandbox, CommitUnit, RunRecord, StorePort } from '../lib/kernel/ports';
import type { JsonObject } from '../lib/kernel/json';
import { NO_FAULTS } from '../lib/kernel/faults';
import { createScriptedModel } from '../lib/models';
import { randomIds, systemClock } from '../lib/server/system';
import { inProcessSandbox, testClock, testIds } from '../lib/kernel/testing';
import { benchSkillText } from './bench-skill';
import { TINY } from './tiny';
import { pool } from './bench-common';
import { COMPILED } from './compiled';

const { values: a } = parseArgs({
  options: {
    kind: { type: 'string', default: 'pure' },
    step: { type: 'string', default: 'node' },
    runs: { type: 'string', default: TINY ? '20' : '5000' },
    tiny: { type: 'boolean' },
    steps: { type: 'string', default: '5' },
    caps: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '8' },
    events: { type: 'boolean', default: false },
  },
  strict: true,
});
const KIND = a.kind === 'effectful' ? 'effectful' : 'pure';
const STEP = a.step === 'op' ? 'op' : 'node';
const N = Number(a.steps);
const CAPS = Number(a.caps);

/** the bench's step function (bench-store.ts STEP_MODULE), here in process */
function stepResult(runId: unknown, i: number) {
  const o: Record<string, unknown> = { run: String(runId), step: i, ok: true, sum: (i * 2654435761) % 1000003, tag: `step-${i}` };
  const base = JSON.stringify({ ...o, pad: '' }).length;
  o.pad = 'x'.repeat(Math.max(0, 200 - base));
  return o;
}
const step = (v: JsonObject): JsonObject => {
  const i = (v.i as number | undefined) ?? 0;
  return { i: i + 1, last: stepResult(v.run, i) as JsonObject };
};

/** a worker's answer, as sandbox-worker gives it: a fused chain's outputs, each step fed the value merged so far */
const steps = inProcessSandbox(step);
/** with --caps, every call prepared (as the real sandbox does), a capability's answering nothing (no contribution) */
const answer: CodeSandbox['call'] = (c, o) => (c.exportName.startsWith('cap') ? Promise.resolve(null) : steps.call(c, o));
const sandbox: CodeSandbox = CAPS ? { ...steps, call: answer, prepare: (c, o) => ({ start: () => answer(c, o) }) } : steps;

/** keeps nothing but, with `--events`, what it was given (as JSON: the bytes a store would be handed) */
const recorded: string[] = [];
const ok = { kind: 'committed' as const };
const store = {
  async createRun(run: RunRecord, first: CommitUnit) {
    if (a.events) recorded.push(`create ${JSON.stringify(run)}`, `unit ${JSON.stringify(first)}`);
  },
  async commit(_runId: string, unit: CommitUnit) {
    if (a.events) recorded.push(`unit ${JSON.stringify(unit)}`);
    return ok;
  },
  async claimRun() {
    return { release: async () => {} };
  },
  watchAbortRequest: () => () => {},
  async getRun() {
    return null;
  },
} as unknown as StorePort;

const text = benchSkillText(KIND, N, STEP, CAPS);
// the bundle folder: the compiler wants the step's module there (its function runs here, not from it)
const DIR = path.join(tmpdir(), 'sc-bench-kernel');
mkdirSync(DIR, { recursive: true });
writeFileSync(path.join(DIR, 'step.mjs'), 'export function step() {}\n');
writeFileSync(path.join(DIR, 'caps.mjs'), Array.from({ length: CAPS }, (_, i) => `export function cap${i}() {}\n`).join(''));
const plan = compileSkill(text, { file: path.join(DIR, 'skill.md'), bundleDir: DIR }).plan;
const script = 'turns:\n  - finish: { run: bench, i: 0 }\n';
const deps = (deterministic: boolean): KernelDeps => ({
  store,
  sandbox,
  faults: NO_FAULTS,
  clock: deterministic ? testClock() : systemClock,
  ids: deterministic ? testIds() : randomIds,
  model: createScriptedModel(script, { file: 'model.yaml' }),
});

async function once(deterministic: boolean) {
  const r = await startRun(plan, deps(deterministic), { input: {}, skillText: text });
  if (r.status !== 'completed') throw new Error(JSON.stringify(r.error));
}

if (a.events) {
  await once(true);
  process.stdout.write(recorded.join('\n') + '\n');
} else {
  const R = Number(a.runs);
  const C = Number(a.concurrency);
  await pool(Math.min(R, 500), C, () => once(false)); // warm: compiled, inline caches settled
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await pool(R, C, () => once(false));
  const wallMs = performance.now() - t0;
  const c1 = process.cpuUsage(c0);
  const cpuMs = (c1.user + c1.system) / 1000;
  console.log(JSON.stringify({ harness: 'kernel', compiled: COMPILED, kind: KIND, step: STEP, runs: R, steps: N, caps: CAPS, concurrency: C, nodeCpuMsPerRun: +(cpuMs / R).toFixed(4), wallMsPerRun: +(wallMs / R).toFixed(4) }));
}
