// npm run bench:store — our kernel, durable in Postgres, on the peers' shapes.
//   --mode single --steps 1000                 1 run × N steps
//   --mode many --workflows 200 --steps 5 --concurrency 8
//   --mode crash --steps 100 --kill-after 50   SIGKILL mid-run, resume, count re-executions
//   --step node|op (default node)              op: each step is the builtin workspace/write op, in process (harness
//                                              `stagecraft/effectful+op`): one commit per step (the 200-byte artifact
//                                              with its event) and no sandbox call, the shape of a DBOS step
//   --kind effectful|pure|both (default both)  one JSON line per kind, in every mode; its harness is
//                                              `stagecraft/effectful` or `stagecraft/pure` (and `kind` says it too)
//   --fresh                                    drop and recreate the database first
// A step is a `node` code step (the product's unit of user code) returning the
// peers' 200-byte result; `effectful` steps commit before the next starts (as
// DBOS does), `pure` ones (`pure: true`) may be group-committed. Code runs in
// the warm sandbox workers, whose CPU is reported as workerCpuMsPerStep
// (nodeCpuMsPerStep is this process only, as for the peers). Each line also says
// what a step waited on: store writes and sandbox calls, counted and timed at the
// ports (commitsPerStep, commitRttMs, codeCallsPerStep, codeCallRttMs).
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compileSkill } from '../lib/skill';
import { startRun, resumeRun } from '../lib/kernel/runner';
import type { KernelDeps } from '../lib/kernel/context';
import type { Plan } from '../lib/kernel/plan';
import { openStore } from '../lib/store';
import { createCodeSandbox } from '../lib/sandbox';
import { isolationFor, sandboxMode } from '../lib/sandbox/isolation';
import { workspaceQuotaFromEnv } from '../lib/sandbox/workspace-usage';
import { createScriptedModel } from '../lib/models';
import { randomIds, systemClock } from '../lib/server/system';
import { faultsFromSpec } from '../lib/kernel/faults';
import { dbUrl, ensureDb, measure, pool, rates, report } from './bench-common';

const { values: a } = parseArgs({
  options: {
    mode: { type: 'string', default: 'single' },
    steps: { type: 'string', default: '1000' },
    workflows: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '1' },
    kind: { type: 'string', default: 'both' },
    step: { type: 'string', default: 'node' },
    db: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    'kill-after': { type: 'string', default: '50' },
    role: { type: 'string', default: 'parent' },
    id: { type: 'string' },
    side: { type: 'string' },
    dir: { type: 'string' },
  },
  strict: true,
});
const N = Number(a.steps);
/** `node`: a code step in a sandbox worker (user code, the default); `op`: the builtin workspace/write op, in process */
const STEP = a.step;
/** what each op step writes: 200 bytes, as the peers' step result */
const OP_CONTENT = 'x'.repeat(200);
const W = Number(a.workflows);
const C = Number(a.concurrency);
const DB = a.db ?? (a.mode === 'crash' ? 'stagecraft_bench_crash' : 'stagecraft_bench');
type Kind = 'effectful' | 'pure';
/** one harness name per kind, so that the peers' summarize.mjs (which groups by harness) keeps them apart */
const harnessOf = (kind: Kind) => `stagecraft/${kind}${STEP === 'op' ? '+op' : ''}`;

const STEP_MODULE = `import { appendFileSync } from 'node:fs';
// the peers' deterministic ~200-byte step result (bench-peers/common.mjs stepResult)
function stepResult(runId, i) {
  const o = { run: String(runId), step: i, ok: true, sum: (i * 2654435761) % 1000003, tag: \`step-\${i}\` };
  const base = JSON.stringify({ ...o, pad: '' }).length;
  o.pad = 'x'.repeat(Math.max(0, 200 - base));
  return o;
}
export function step(v) {
  const i = v.i ?? 0;
  if (v.side) appendFileSync(v.side, \`\${i} \${Date.now()}\\n\`);
  return { i: i + 1, last: stepResult(v.run, i) };
}
`;

/**
 * Everything this process's runs see, under one folder: the bundles (read-only in the sandbox, as a
 * run's bundle version is) and `work/`, the workspace code steps run in (writable, with the default
 * quota checked around each call, as in a run the app or the CLI starts). The crash parent names it
 * (`--dir`), so its worker and its resume run share it and the side file is in the workspace.
 */
/** STAGECRAFT_SANDBOX (default auto: bubblewrap where it works); every line says which (`sandbox`) */
const ISOLATION = isolationFor(sandboxMode(process.env));
const ROOT = a.dir ?? mkdtempSync(path.join(tmpdir(), 'sc-bench-'));
const WORK = path.join(ROOT, 'work');
mkdirSync(WORK, { recursive: true });

/** A bundle whose postprocessor is N code steps; its model finishes at once. */
function bundle(kind: Kind, n: number, side?: string): { plan: Plan; text: string; dir: string } {
  const d = path.join(ROOT, `bundle-${kind}-${n}`);
  mkdirSync(d, { recursive: true });
  writeFileSync(path.join(d, 'step.mjs'), STEP_MODULE);
  const steps = Array.from({ length: n }, () =>
    STEP === 'op'
      ? `    - { type: run_op, op: workspace/write, args: { path: out.json, content: "${OP_CONTENT}" }, into: last }`
      : `    - { type: node, module: ./step.mjs, function: step${kind === 'pure' ? ', pure: true' : ''} }`,
  ).join('\n');
  const permissions = STEP === 'op' ? 'permissions:\n  ops: [workspace/write]\n  effects: [workspace.write]\n' : '';
  const text = `---\nname: bench_${kind}\nentry: main\ngraph:\n  main: []\noutput_schema: { type: object }\n${permissions}postprocessor:\n  output_schema: { type: object, required: [last] }\n  steps:\n${steps}\n---\nBenchmark.\n`;
  writeFileSync(path.join(d, 'skill.md'), text);
  writeFileSync(path.join(d, 'model.yaml'), `turns:\n  - finish: { run: bench, i: 0${side ? `, side: ${JSON.stringify(side)}` : ''} }\n`);
  return { plan: compileSkill(text, { file: path.join(d, 'skill.md'), bundleDir: d }).plan, text, dir: d };
}

/** Latency of the two round trips a step can wait on, summed over every call since the last reset. */
const waits = { commits: 0, commitMs: 0, calls: 0, callMs: 0 };

/** Wraps `obj[name]` (an async method) so that each call's latency adds to `waits`. */
function timeCalls(obj: object, name: string, count: 'commits' | 'calls', ms: 'commitMs' | 'callMs'): void {
  const o = obj as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const orig = o[name].bind(obj);
  o[name] = async (...args: unknown[]) => {
    const t0 = performance.now();
    try {
      return await orig(...args);
    } finally {
      waits[count]++;
      waits[ms] += performance.now() - t0;
    }
  };
}

/** Where a step's time went: store writes and code calls per step, and the mean latency of each. */
function breakdown(totalSteps: number) {
  return {
    commitsPerStep: +(waits.commits / totalSteps).toFixed(2),
    commitRttMs: +(waits.commitMs / waits.commits).toFixed(3),
    codeCallsPerStep: +(waits.calls / totalSteps).toFixed(2),
    codeCallRttMs: +(waits.callMs / waits.calls).toFixed(3),
  };
}

async function withStore<T>(fn: (deps: (b: { dir: string }) => KernelDeps) => Promise<T>): Promise<T> {
  const store = await openStore({ databaseUrl: dbUrl(DB), poolSize: Math.max(10, C + 2) });
  // one warm sandbox for the whole process: workers stay warm across runs
  const sandbox = createCodeSandbox({ maxWorkersPerLanguage: Math.min(C, 2), bundleDir: ROOT, workDir: WORK, workspaceQuota: workspaceQuotaFromEnv({}), isolation: ISOLATION });
  timeCalls(store, 'createRun', 'commits', 'commitMs');
  timeCalls(store, 'commit', 'commits', 'commitMs');
  timeCalls(sandbox, 'call', 'calls', 'callMs');
  const faults = faultsFromSpec(process.env.STAGECRAFT_FAULT, () => process.kill(process.pid, 'SIGKILL'));
  try {
    return await fn((b) => ({ store, clock: systemClock, ids: randomIds, sandbox, faults, model: createScriptedModel(path.join(b.dir, 'model.yaml')) }));
  } finally {
    await sandbox.close();
    await store.close();
  }
}

async function perf(kind: Kind) {
  const b = bundle(kind, N);
  return withStore(async (deps) => {
    // warm-up: short runs, as many at once as will run at once (every sandbox worker started, the
    // step module imported in each, the commit statement prepared) — what a running server has
    const warm = bundle(kind, 2);
    await pool(C, C, async () => {
      await startRun(warm.plan, deps(warm), { input: {}, skillText: warm.text });
    });
    const total = a.mode === 'many' ? W * N : N;
    Object.assign(waits, { commits: 0, commitMs: 0, calls: 0, callMs: 0 });
    const m = await measure(async () => {
      if (a.mode === 'many') {
        await pool(W, C, async () => {
          const r = await startRun(b.plan, deps(b), { input: {}, skillText: b.text });
          if (r.status !== 'completed') throw new Error(JSON.stringify(r.error));
        });
      } else {
        const r = await startRun(b.plan, deps(b), { input: {}, skillText: b.text });
        if (r.status !== 'completed') throw new Error(JSON.stringify(r.error));
      }
    });
    return {
      harness: harnessOf(kind),
      sandbox: ISOLATION.kind,
      step: STEP,
      kind,
      mode: a.mode,
      steps: N,
      workflows: a.mode === 'many' ? W : 1,
      concurrency: a.mode === 'many' ? C : 1,
      ...m,
      out: undefined,
      ...rates(total, m),
      ...breakdown(total),
    };
  });
}

async function crashRole() {
  const b = bundle(a.kind === 'pure' ? 'pure' : 'effectful', N, a.side);
  await withStore(async (deps) => {
    if (a.role === 'worker') {
      await startRun(b.plan, deps(b), { input: {}, skillText: b.text, runId: a.id });
      report({ role: 'worker', finished: true });
    } else {
      const t0 = performance.now();
      const r = await resumeRun(a.id!, () => b.plan, deps(b));
      const last = (r.output as { last?: { step: number } } | null)?.last;
      report({ role: 'resume', ok: r.status === 'completed' && last?.step === N - 1, resumeToDoneMs: +(performance.now() - t0).toFixed(1) });
    }
  });
}

/** A file of the peer harnesses: the copy bench:compare made (.bench-peers), else PEERS_SRC or the shared folder beside the checkout. */
function peerFile(name: string): string {
  const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const dirs = [path.join(repo, '.bench-peers'), process.env.PEERS_SRC, path.join(repo, '../shared/bench-peers'), path.join(repo, '../../shared/bench-peers')];
  const found = dirs.filter((d): d is string => !!d).map((d) => path.resolve(repo, d, name)).find((f) => existsSync(f));
  if (!found) usage(`crash mode needs the peers' ${name} (looked in .bench-peers, PEERS_SRC and ../shared/bench-peers): run npm run bench:compare once, or set PEERS_SRC`);
  return found;
}

async function crashParent(kind: Kind) {
  const crashMod = peerFile('crash.mjs');
  const { crashDemo } = (await import(crashMod)) as { crashDemo: (o: object) => Promise<Record<string, unknown>> };
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-bench-crash-'));
  const side = path.join(dir, 'work', 'side.txt'); // in the workspace: the one place sandboxed code may write
  const id = `run_crash_${process.pid}_${Date.now()}`;
  const script = new URL('./bench-store.mjs', import.meta.url).pathname;
  const res = await crashDemo({
    script,
    baseArgs: ['--mode', 'crash', '--kind', kind, '--db', DB, '--steps', String(N), '--id', id, '--side', side, '--dir', dir],
    steps: N,
    killAfter: Number(a['kill-after']),
    side,
    checkpointed: async () => {
      const store = await openStore({ databaseUrl: dbUrl(DB) });
      try {
        const events = await store.readEvents(id);
        return events.filter((e) => e.type === 'step_completed' && e.data.kind === 'processor').length;
      } finally {
        await store.close();
      }
    },
  });
  report({ harness: harnessOf(kind), sandbox: ISOLATION.kind, kind, mode: 'crash', ...res });
}

const MODES = ['single', 'many', 'crash'];
const KINDS = ['effectful', 'pure', 'both'];
function usage(what: string): never {
  process.stderr.write(`bench:store: ${what}\n  --mode single|many|crash  --kind effectful|pure|both  --steps N  --workflows N  --concurrency N  --kill-after N  --fresh\n`);
  process.exit(2);
}
if (!MODES.includes(a.mode!)) usage(`--mode ${a.mode}: a mode is one of ${MODES.join(', ')}`);
if (!KINDS.includes(a.kind!)) usage(`--kind ${a.kind}: a kind is one of ${KINDS.join(', ')}`);
if (a.step !== 'node' && a.step !== 'op') usage(`--step ${a.step}: a step is node or op`);
if (a.step === 'op' && (a.kind !== 'effectful' || a.mode === 'crash')) usage('--step op measures effectful steps (workspace/write is one): pass --kind effectful, in single or many mode');
for (const [flag, n] of [['steps', N], ['workflows', W], ['concurrency', C], ['kill-after', Number(a['kill-after'])]] as const) {
  if (!Number.isInteger(n) || n < 1) usage(`--${flag} must be a whole number ≥ 1`);
}
if (a.mode === 'crash' && a.role === 'parent' && Number(a['kill-after']) >= N) usage(`--kill-after ${a['kill-after']} must be below --steps ${N}, or the run ends before the kill`);
const kinds: Kind[] = a.kind === 'both' ? ['effectful', 'pure'] : [a.kind as Kind];

if (a.mode === 'crash') {
  if (a.role === 'parent') {
    await ensureDb(DB, a.fresh);
    for (const k of kinds) await crashParent(k);
  }
  else await crashRole();
} else {
  await ensureDb(DB, a.fresh);
  for (const k of kinds) report(await perf(k));
}
process.exit(0);
