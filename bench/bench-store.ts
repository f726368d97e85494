// npm run bench:store — our kernel, durable in Postgres, on the peers' shapes.
//   --mode single --steps 1000                 1 run × N steps
//   --mode many --workflows 200 --steps 5 --concurrency 8
//   --mode crash --steps 100 --kill-after 50   SIGKILL mid-run, resume, count re-executions; the resume says where its
//                                              time went (loadMs, openStoreMs: its worker starting meanwhile, toFirstCallMs, firstCallMs)
//   --mode floor --steps 1000                  the effectful node step's floor (harness `floor/node-step`): per step,
//                                              one raw INSERT of its 200-byte result (autocommit, as pg-floor.mjs)
//                                              and one call of its function in a warm worker of the same sandbox
//   --step node|op (default node)              op: each step is the builtin workspace/write op, in process (harness
//                                              `stagecraft/effectful+op`): one commit per step (the 200-byte artifact
//                                              with its event) and no sandbox call, the shape of a DBOS step
//   --stamps                                   single and floor modes: `ports`, the main thread's gaps per step between a
//                                              worker's reply and the commit sent, the answer and the next request (port-stamps.ts)
//   --kind effectful|pure|both (default both)  one JSON line per kind, in every mode; its harness is
//                                              `stagecraft/effectful` or `stagecraft/pure` (and `kind` says it too)
//   --db NAME                                  the database (default: stagecraft_bench, or stagecraft_bench_crash in crash
//                                              mode, after DB_PREFIX when set)
//   --fresh                                    drop and recreate the database first
//   --tiny (or BENCH_TINY=1)                   20 steps, 4 workflows by default (the script works; `npm test` runs it)
//   --warm N (default 0)                       N more runs of the measured skill before measuring, at the same
//                                              concurrency: the code hot (TurboFan), the figures a long-running
//                                              server's. For finding steady-state costs only: the peers' harnesses
//                                              warm nothing, so a line with `warmRuns` > 0 is no comparison with them
// A step is a `node` code step (the product's unit of user code) returning the
// peers' 200-byte result; `effectful` steps commit before the next starts (as
// DBOS does), `pure` ones (`pure: true`) may be group-committed. Code runs in
// the warm sandbox workers, whose CPU is reported as workerCpuMsPerStep
// (nodeCpuMsPerStep is this process only, as for the peers). Each line also says
// what a step waited on: store writes and sandbox calls, counted and timed at the
// ports (commitsPerStep, commitRttMs, codeCallsPerStep, codeCallRttMs).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compileSkill } from '../lib/skill';
import { startRun, resumeRun } from '../lib/kernel/runner';
import type { KernelDeps } from '../lib/kernel/context';
import type { CodeSandbox, CommitUnit, StorePort } from '../lib/kernel/ports';
import type { Plan } from '../lib/kernel/plan';
import type { Json } from '../lib/kernel/json';
import pg from 'pg';
import { openStore } from '../lib/store';
import type { WriteStats } from '../lib/store/commit-lanes';
import { createCodeSandbox } from '../lib/sandbox';
import { isolationFor, sandboxMode } from '../lib/sandbox/isolation';
import { workspaceQuotaFromEnv } from '../lib/sandbox/workspace-usage';
import { createScriptedModel } from '../lib/models';
import { randomIds, systemClock } from '../lib/server/system';
import { faultsFromSpec } from '../lib/kernel/faults';
import { dbUrl, ensureDb, measure, pool, rates, report } from './bench-common';
import { TINY } from './tiny';
import { compileBench } from './compile.mjs';
import { firstCodeStep } from '../lib/server/runs/warm-run';
import { benchSkillText } from './bench-skill';
import { optimizeLater } from '../cli/js-tier';
import { stampPorts } from './port-stamps';
import { instrument } from './instrument';

// as the CLI's commands (`run`, `worker`) are: optimized later than V8's default (cli/js-tier.ts)
optimizeLater();

const { values: a } = parseArgs({
  options: {
    mode: { type: 'string', default: 'single' },
    steps: { type: 'string', default: TINY ? '20' : '1000' },
    workflows: { type: 'string', default: TINY ? '4' : '200' },
    concurrency: { type: 'string', default: '1' },
    kind: { type: 'string', default: 'both' },
    step: { type: 'string', default: 'node' },
    db: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    'kill-after': { type: 'string', default: TINY ? '10' : '50' },
    role: { type: 'string', default: 'parent' },
    id: { type: 'string' },
    side: { type: 'string' },
    dir: { type: 'string' },
    tiny: { type: 'boolean' },
    warm: { type: 'string', default: '0' },
    stamps: { type: 'boolean', default: false },
  },
  strict: true,
});
const N = Number(a.steps);
/** `node`: a code step in a sandbox worker (user code, the default); `op`: the builtin workspace/write op, in process */
const STEP = a.step;
const W = Number(a.workflows);
/** --warm: runs of the measured skill before measuring (none by default, as the peers) */
const WARM = Number(a.warm);
const C = Number(a.concurrency);
// without --db, DB_PREFIX names it apart (as compare.sh's databases): two benches at once never share one
const DB = a.db ?? `${process.env.DB_PREFIX ?? ''}${a.mode === 'crash' ? 'stagecraft_bench_crash' : 'stagecraft_bench'}`;
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
const ROOT = a.dir ?? mkdtempSync(path.join(tmpdir(), 'sc-bench-'));
// made here, removed at the exit (each bench:compare line is a process: a folder each was left in the temp dir)
if (!a.dir) process.on('exit', () => rmSync(ROOT, { recursive: true, force: true }));
/** STAGECRAFT_SANDBOX (default auto: bubblewrap where it works); every line says which (`sandbox`). The probe's verdict
 *  is kept in ROOT, as the app and the CLI keep it in their data dir: the crash test's resume finds the worker's. */
const ISOLATION = isolationFor(sandboxMode(process.env), { cacheDir: ROOT });
const WORK = path.join(ROOT, 'work');
mkdirSync(WORK, { recursive: true });

/** A bundle whose postprocessor is N code steps; its model finishes at once. */
function bundle(kind: Kind, n: number, side?: string): { plan: Plan; text: string; dir: string; script: string } {
  const d = path.join(ROOT, `bundle-${kind}-${n}`);
  mkdirSync(d, { recursive: true });
  writeFileSync(path.join(d, 'step.mjs'), STEP_MODULE);
  const text = benchSkillText(kind, n, STEP);
  writeFileSync(path.join(d, 'skill.md'), text);
  const script = `turns:\n  - finish: { run: bench, i: 0${side ? `, side: ${JSON.stringify(side)}` : ''} }\n`;
  writeFileSync(path.join(d, 'model.yaml'), script);
  return { plan: compileSkill(text, { file: path.join(d, 'skill.md'), bundleDir: d }).plan, text, dir: d, script };
}

/** When this process's first sandbox call started and ended (performance.now): a resume's first step, its worker cold. */
const firstCall = { startAt: NaN, endAt: NaN };

/** Latency of the two round trips a step can wait on, summed over every call since the last reset. */
const waits = { commits: 0, commitMs: 0, calls: 0, callMs: 0 };

/**
 * The sandbox's calls: counted and timed into `waits`, and the first one noted in `firstCall`. Every
 * argument reaches the sandbox, its CallOptions too (the run's abort signal, as the kernel passes
 * it): the wrapper this replaced passed the call alone, so the sandbox skipped its abort listener.
 */
function timeSandbox(sandbox: CodeSandbox): void {
  const timed = (_args: unknown[], t0: number) => {
    const now = performance.now();
    // the call that started first (calls may settle out of order)
    if (Number.isNaN(firstCall.startAt) || t0 < firstCall.startAt) [firstCall.startAt, firstCall.endAt] = [t0, now];
    waits.calls++;
    waits.callMs += now - t0;
  };
  instrument(sandbox, 'call', timed);
  // a call the kernel prepares while a commit travels is timed from its start, as a call is from its call
  const prepare = sandbox.prepare?.bind(sandbox);
  if (prepare) {
    sandbox.prepare = (call, opts) => {
      const prepared = prepare(call, opts);
      instrument(prepared, 'start', timed);
      return prepared;
    };
  }
}

/**
 * Each store round trip of the measured runs by what it records, counted and timed: `create` (the run
 * row with run_started and the entry snapshot, and — a run being recorded with its first commit — the
 * model's turn, the phase's end, the finish artifact and the snapshot's move to the postprocessor),
 * `claim` (taking the run's claim, in the same statement), `finish` (that first commit, for a run
 * recorded before it: the app's), `step`
 * (a processor step), `end` (run_completed, the report, the run row's end, the snapshot deleted), and
 * any other unit by its event types. Read per run, it is where a run's fixed cost goes. A creation
 * and a commit also count in `waits` (a store write a step waited on).
 */
const tripKinds = new Map<string, { n: number; ms: number }>();
function kindOf(unit: CommitUnit): string {
  let steps = 0;
  let ends = false;
  let artifact = false;
  for (const e of unit.events) {
    if (e.type === 'step_completed') steps++;
    else if (e.type === 'run_completed' || e.type === 'run_failed') ends = true;
    else if (e.type === 'artifact_persisted') artifact = true;
  }
  const n = unit.events.length;
  if (ends) return n > 1 ? `${steps} step + end` : 'end';
  if (artifact) return 'finish';
  if (steps === n) return n === 1 ? 'step' : `${n} steps`;
  return unit.events.map((e) => e.type).join('+');
}
function timeKinds(store: StorePort): void {
  const add = (k: string, t0: number) => {
    const ms = performance.now() - t0;
    const e = tripKinds.get(k);
    if (e) {
      e.n++;
      e.ms += ms;
    } else tripKinds.set(k, { n: 1, ms });
    if (k !== 'claim') {
      waits.commits++;
      waits.commitMs += ms;
    }
  };
  instrument(store, 'createRun', (_args, t0) => add('create', t0));
  instrument(store, 'commit', (args, t0) => add(kindOf(args[1] as CommitUnit), t0));
  instrument(store, 'claimRun', (_args, t0) => add('claim', t0));
}
/** per run: how many round trips of each kind, and their mean latency */
function perRun(runs: number) {
  return Object.fromEntries([...tripKinds].map(([k, v]) => [k, { perRun: +(v.n / runs).toFixed(2), ms: +(v.ms / v.n).toFixed(3) }]));
}

/**
 * What the commit lanes sent for the measured runs (Postgres): statements per run, operations per
 * statement (how much runs share one), the mean time a statement was in flight, and the share of the
 * wall time a statement was (`laneBusy`: near 1, the serial lane is what the runs wait for, and a run
 * costs its writes' statements, not their round trips).
 */
function writePath(w0: WriteStats | null, w1: WriteStats | null, runs: number, wallMs: number) {
  if (!w0 || !w1) return {};
  const statements = w1.statements - w0.statements;
  return {
    statementsPerRun: +(statements / runs).toFixed(2),
    opsPerStatement: +((w1.ops - w0.ops) / statements).toFixed(2),
    statementMs: +((w1.busyMs - w0.busyMs) / statements).toFixed(3),
    laneBusy: +((w1.busyMs - w0.busyMs) / wallMs).toFixed(2),
    // prepared statements first sent in the measured window: each one planned once by its connection (~3 ms of server CPU)
    statementShapes: w1.shapes - w0.shapes,
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

/** The sandbox of this process's runs: warm workers that see the bundles read-only and the workspace, with its quota. */
const createSandbox = (workers: number) =>
  createCodeSandbox({ maxWorkersPerLanguage: workers, bundleDir: ROOT, workDir: WORK, workspaceQuota: workspaceQuotaFromEnv({}), isolation: ISOLATION });

/** `warmFor`: the plan this process runs, whose first worker starts while the store opens (as the CLI's `run` does, warm-run.ts) */
async function withStore<T>(fn: (deps: (b: { dir: string; script: string }) => KernelDeps) => Promise<T>, warmFor?: Plan): Promise<T> {
  // one warm sandbox for the whole process: workers stay warm across runs
  const sandbox = createSandbox(Math.min(C, 2));
  const code = warmFor && firstCodeStep(warmFor);
  if (code) sandbox.warm?.({ language: code.type, modulePath: code.modulePath });
  const store = await openStore({ databaseUrl: dbUrl(DB), poolSize: Math.max(10, C + 2) });
  timeKinds(store);
  timeSandbox(sandbox);
  const faults = faultsFromSpec(process.env.STAGECRAFT_FAULT, () => process.kill(process.pid, 'SIGKILL'));
  try {
    return await fn((b) => ({ store, clock: systemClock, ids: randomIds, sandbox, faults, model: createScriptedModel(b.script, { file: path.join(b.dir, 'model.yaml') }) }));
  } finally {
    await sandbox.close();
    await store.close();
  }
}

/**
 * The floor of an effectful node step: what one must pay for it at the least — its function called
 * once in a warm worker (the sandbox a run gets: bubblewrap, the workspace and its quota) and its
 * 200-byte result made durable by one raw INSERT, autocommitted (pg-floor.mjs --mode single).
 */
/** --stamps: the measured window's main-thread gaps at the ports (port-stamps.ts), from now until `take` */
function portStamps() {
  if (!a.stamps) return null;
  const stamps = stampPorts(Number(new URL(dbUrl(DB)).port || 5432));
  stamps.mark();
  return stamps;
}

async function floor() {
  const b = bundle('effectful', 1);
  const client = new pg.Client({ connectionString: dbUrl(DB) });
  await client.connect();
  const sandbox = createSandbox(1);
  const modulePath = path.join(b.dir, 'step.mjs');
  let calls = 0;
  let callMs = 0;
  let inserts = 0;
  let insertMs = 0;
  const steps = async (id: string, n: number) => {
    let v: Json = { run: id, i: 0 };
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const out = (await sandbox.call({ language: 'node', modulePath, exportName: 'step', input: v, timeoutMs: 30_000 })) as { i: number; last: Json };
      const t1 = performance.now();
      await client.query('INSERT INTO floor_steps (run_id, step, result) VALUES ($1, $2, $3)', [id, i, JSON.stringify(out.last)]);
      calls++;
      callMs += t1 - t0;
      inserts++;
      insertMs += performance.now() - t1;
      v = { run: id, i: out.i };
    }
  };
  try {
    await client.query('CREATE TABLE IF NOT EXISTS floor_steps (run_id text NOT NULL, step int NOT NULL, result jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (run_id, step))');
    await steps(`floor-warm-${process.pid}-${Date.now()}`, 20); // the worker started, the module imported, the statement's plan cached
    [calls, callMs, inserts, insertMs] = [0, 0, 0, 0];
    const stamps = portStamps();
    const m = await measure(() => steps(`floor-${process.pid}-${Date.now()}`, N));
    const ports = stamps?.take();
    return {
      harness: 'floor/node-step',
      sandbox: ISOLATION.kind,
      mode: 'single',
      steps: N,
      workflows: 1,
      concurrency: 1,
      ...m,
      out: undefined,
      ...rates(N, m),
      insertRttMs: +(insertMs / inserts).toFixed(3),
      codeCallRttMs: +(callMs / calls).toFixed(3),
      ...(ports ? { ports } : {}),
    };
  } finally {
    await sandbox.close();
    await client.end();
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
    await pool(WARM, C, async () => {
      const r = await startRun(b.plan, deps(b), { input: {}, skillText: b.text });
      if (r.status !== 'completed') throw new Error(JSON.stringify(r.error));
    });
    const total = a.mode === 'many' ? W * N : N;
    Object.assign(waits, { commits: 0, commitMs: 0, calls: 0, callMs: 0 });
    tripKinds.clear();
    const store = deps(b).store as StorePort & { writeStats?: () => WriteStats | null };
    const w0 = store.writeStats?.() ?? null;
    const stamps = portStamps();
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
    }, DB);
    const ports = stamps?.take();
    return {
      harness: harnessOf(kind),
      sandbox: ISOLATION.kind,
      step: STEP,
      kind,
      mode: a.mode,
      steps: N,
      workflows: a.mode === 'many' ? W : 1,
      concurrency: a.mode === 'many' ? C : 1,
      ...(WARM ? { warmRuns: WARM } : {}),
      ...m,
      out: undefined,
      ...rates(total, m),
      ...breakdown(total),
      // at c > 1 the round trips of different runs overlap: the latencies are each one's own, not a share of the wall time
      roundTrips: perRun(a.mode === 'many' ? W : 1),
      ...writePath(w0, store.writeStats?.() ?? null, a.mode === 'many' ? W : 1, m.wallMs),
      ...(ports ? { ports } : {}),
    };
  });
}

async function crashRole() {
  // where a resume's time goes: loading this process (node and the compiled modules), opening the
  // store (its first worker starting meanwhile), then the resume itself (reading the log, the steps left)
  const loadedMs = performance.now();
  const b = bundle(a.kind === 'pure' ? 'pure' : 'effectful', N, a.side);
  await withStore(async (deps) => {
    const openedMs = performance.now();
    if (a.role === 'worker') {
      await startRun(b.plan, deps(b), { input: {}, skillText: b.text, runId: a.id });
      report({ role: 'worker', finished: true });
    } else {
      const t0 = performance.now();
      const r = await resumeRun(a.id!, () => b.plan, deps(b));
      const last = (r.output as { last?: { step: number } } | null)?.last;
      const ms = (x: number) => +x.toFixed(1);
      // resume → its first step sent to the sandbox (reads, the claim, the steps answered from the log), and that call (its worker started while the store opened)
      report({
        role: 'resume',
        ok: r.status === 'completed' && last?.step === N - 1,
        loadMs: ms(loadedMs),
        openStoreMs: ms(openedMs - loadedMs),
        toFirstCallMs: ms(firstCall.startAt - t0),
        firstCallMs: ms(firstCall.endAt - firstCall.startAt),
        resumeToDoneMs: ms(performance.now() - t0),
      });
    }
  }, b.plan);
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
  // the worker and the resume run this script compiled, as a shipped build runs (not through tsx)
  const script = await compileBench('bench/bench-store.ts');
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
  rmSync(dir, { recursive: true, force: true });
  report({ harness: harnessOf(kind), sandbox: ISOLATION.kind, kind, mode: 'crash', ...res });
}

const MODES = ['single', 'many', 'crash', 'floor'];
const KINDS = ['effectful', 'pure', 'both'];
function usage(what: string): never {
  process.stderr.write(`bench:store: ${what}\n  --mode single|many|crash|floor  --kind effectful|pure|both  --steps N  --workflows N  --concurrency N  --kill-after N  --warm N  --db NAME (default after DB_PREFIX)  --fresh\n`);
  process.exit(2);
}
if (!MODES.includes(a.mode!)) usage(`--mode ${a.mode}: a mode is one of ${MODES.join(', ')}`);
if (!KINDS.includes(a.kind!)) usage(`--kind ${a.kind}: a kind is one of ${KINDS.join(', ')}`);
if (a.step !== 'node' && a.step !== 'op') usage(`--step ${a.step}: a step is node or op`);
if (a.step === 'op' && (a.kind !== 'effectful' || a.mode === 'crash')) usage('--step op measures effectful steps (workspace/write is one): pass --kind effectful, in single or many mode');
for (const [flag, n] of [['steps', N], ['workflows', W], ['concurrency', C], ['kill-after', Number(a['kill-after'])]] as const) {
  if (!Number.isInteger(n) || n < 1) usage(`--${flag} must be a whole number ≥ 1`);
}
if (!Number.isInteger(WARM) || WARM < 0) usage('--warm must be a whole number ≥ 0');
if (WARM && a.mode !== 'single' && a.mode !== 'many') usage('--warm is for the single and many modes');
if (a.stamps && a.mode !== 'single' && a.mode !== 'floor') usage('--stamps is for the single and floor modes (one step at a time: the gaps are one run\'s)');
if (a.mode === 'crash' && a.role === 'parent' && Number(a['kill-after']) >= N) usage(`--kill-after ${a['kill-after']} must be below --steps ${N}, or the run ends before the kill`);
const kinds: Kind[] = a.kind === 'both' ? ['effectful', 'pure'] : [a.kind as Kind];

if (a.mode === 'crash') {
  if (a.role === 'parent') {
    await ensureDb(DB, a.fresh);
    for (const k of kinds) await crashParent(k);
  }
  else await crashRole();
} else if (a.mode === 'floor') {
  await ensureDb(DB, a.fresh);
  report(await floor());
} else {
  await ensureDb(DB, a.fresh);
  for (const k of kinds) report(await perf(k));
}
process.exit(0);
