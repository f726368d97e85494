// npm run bench:kernel — kernel overheads, in memory, printed as one JSON line.
//   stageDispatchUs      StageDispatcher.runPhase per stage (grant check, handler call, trace)
//   stageInRunUs         one stage inside a run (+ memo lookup, step_completed event, group commit)
//   pureChain1000Ms      a postprocessor of 1,000 pure in-process steps (validate), end to end
//   pythonMsPerCall / nodeMsPerCall   warm code-step calls in the sandbox (cold start alongside; `sandbox` says
//                        which: bwrap where bubblewrap works, else none); `unsandboxed` the same as plain
//                        child processes, and `warmCallRatio` sandboxed / unsandboxed (target ≤ 2); `inWorkspace`
//                        the sandboxed warm call with a run's workspace, its quota and .git checked around each call
//   codeStepInRunMs      one `node` step inside a run (memo + record + sandbox call)
//   fusedPureCodeStepInRunMs   the same with `pure: true`: consecutive pure steps share one worker request
//   fileReadUs / fileWriteUs   one file/read (4 KB, a file of the workspace) and one file/write (4 KB into a
//                        subfolder, the workspace quota checked as a run checks it) through the kernel's op path
// --tiny or BENCH_TINY=1: a few calls of each, to check the script works (its figures mean little).
// Targets (issue): ≤ 5 µs per stage dispatch, ≤ 50 ms for the chain, ≤ 5 ms per code-step call.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunContext } from '../lib/kernel/context';
import { StageDispatcher } from '../lib/kernel/dispatcher';
import { executeOp } from '../lib/kernel/ops/execute';
import { createWorkspaceFiles } from '../lib/sandbox/workspace-files';
import { workspaceQuotaFromEnv } from '../lib/sandbox/workspace-usage';
import { deps, phase, plan, playModel, post, stage, testClock, testIds } from '../lib/kernel/testing';
import { startRun } from '../lib/kernel/runner';
import type { StepSpec } from '../lib/kernel/plan';
import type { StageContext } from '../lib/kernel/stage-types';
import { createCodeSandbox } from '../lib/sandbox';
import { benchCodeSteps } from '../lib/sandbox/bench';
import { isolationFor } from '../lib/sandbox/isolation';
import { size, TINY } from '../bench/tiny';
import { COMPILED } from '../bench/compiled';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hr = () => Number(process.hrtime.bigint()) / 1e6;

async function stageDispatchUs(): Promise<number> {
  const d = new StageDispatcher(async () => ({ annotations: [] }), testClock(), testIds());
  const program = [stage('a', 'post-model'), stage('b', 'post-model'), stage('c', 'post-tool', ['transcript.write'])];
  const grants = new Set(['transcript.write']);
  const ctx = (s: { name: string }) => ({ runId: 'r', phase: 'p', round: 1, rung: 'post-model', stage: s.name, with: {} }) as StageContext;
  const meta = { runId: 'r', phase: 'p', round: 1 };
  const N = size(50_000, 500);
  for (let i = 0; i < size(5_000, 50); i++) await d.runPhase(program, 'post-model', ctx, grants, meta);
  const reps: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = hr();
    for (let i = 0; i < N; i++) await d.runPhase(program, 'post-model', ctx, grants, meta);
    reps.push(((hr() - t) * 1000) / (N * 2));
  }
  return median(reps);
}

async function stageInRunUs(): Promise<number> {
  const rounds = size(200, 10);
  const turns = Array.from({ length: rounds - 1 }, () => ({ text: 'thinking' })).concat([{ finish: { ok: true } } as never]);
  const p = plan({ phases: { main: phase('main', { maxRounds: rounds }) }, stageProgram: Array.from({ length: 5 }, (_, i) => ({ ...stage(`s${i}`, 'post-model'), binding: { kind: 'builtin' as const, name: 'unverified_numbers' } })) });
  const noStages = plan({ phases: { main: phase('main', { maxRounds: rounds }) } });
  const time = async (pl: typeof p) => {
    const t = hr();
    await startRun(pl, deps(playModel(turns)), { input: {}, skillText: '' });
    return hr() - t;
  };
  await time(p);
  await time(noStages);
  const withS: number[] = [];
  const without: number[] = [];
  for (let r = 0; r < 5; r++) {
    withS.push(await time(p));
    without.push(await time(noStages));
  }
  return ((median(withS) - median(without)) * 1000) / (rounds * 5);
}

async function pureChainMs(n: number): Promise<number> {
  const steps: StepSpec[] = Array.from({ length: n }, (_, i) => ({
    index: i,
    type: 'validate',
    onError: 'fail',
    emptyValue: null,
    line: 1,
    schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  })) as StepSpec[];
  const p = plan({ postprocessor: post(steps) });
  const runOnce = async () => {
    const d = deps(playModel([{ finish: { title: 'x', body: 'y'.repeat(200) } }]));
    const t = hr();
    const out = await startRun(p, d, { input: {}, skillText: '' });
    if (out.status !== 'completed') throw new Error(JSON.stringify(out.error));
    return hr() - t;
  };
  for (let i = 0; i < 3; i++) await runOnce();
  const reps: number[] = [];
  for (let i = 0; i < 7; i++) reps.push(await runOnce());
  return median(reps);
}

async function codeStepInRunMs(n: number, pure: boolean): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-bench-'));
  writeFileSync(path.join(dir, 'm.mjs'), 'export function f(v) { return { n: (v.n ?? 0) + 1 }; }\n');
  const steps = Array.from({ length: n }, (_, i) => ({ index: i, type: 'node', onError: 'fail', emptyValue: null, line: 1, module: './m.mjs', modulePath: path.join(dir, 'm.mjs'), function: 'f', timeoutMs: 5000, pure })) as StepSpec[];
  const p = plan({ postprocessor: post(steps) });
  const sandbox = createCodeSandbox();
  try {
    await startRun(p, deps(playModel([{ finish: {} }]), { sandbox }), { input: {}, skillText: '' });
    const t = hr();
    await startRun(p, deps(playModel([{ finish: {} }]), { sandbox }), { input: {}, skillText: '' });
    return (hr() - t) / n;
  } finally {
    await sandbox.close();
  }
}

/** µs per file op, as a run's model or run_op step makes it (the workspace holds a few files, as most do) */
async function fileOpUs(op: 'file/read' | 'file/write'): Promise<number> {
  const root = mkdtempSync(path.join(tmpdir(), 'sc-bench-files-'));
  writeFileSync(path.join(root, 'notes.txt'), 'x'.repeat(4096));
  const files = createWorkspaceFiles({ root, quota: workspaceQuotaFromEnv({}) });
  const ctx = { deps: deps(playModel([]), { files }), plan: plan({}), runId: 'r' } as unknown as RunContext;
  const args: Record<string, string> = op === 'file/read' ? { path: 'notes.txt' } : { path: 'out/w.txt', content: 'y'.repeat(4096) };
  const N = size(2000, 20);
  for (let i = 0; i < size(200, 5); i++) await executeOp(ctx, op, args, 'p');
  const reps: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = hr();
    for (let i = 0; i < N; i++) await executeOp(ctx, op, args, 'p');
    reps.push(((hr() - t) * 1000) / N);
  }
  return median(reps);
}

// code steps in the sandbox this machine gives them (bubblewrap here) and as plain child processes
const isolation = isolationFor('auto');
const code = await benchCodeSteps({ calls: size(500, 10), isolation });
const plain = await benchCodeSteps({ calls: size(500, 10), isolation: { kind: 'none', reason: 'measured for comparison' } });
const inWorkspace = await benchCodeSteps({ calls: size(300, 10), isolation, inWorkspace: true });
const ratio = (a: number, b: number) => +(a / b).toFixed(2);
const result = {
  bench: 'kernel',
  tiny: TINY,
  compiled: COMPILED,
  stageDispatchUs: +(await stageDispatchUs()).toFixed(3),
  stageInRunUs: +(await stageInRunUs()).toFixed(2),
  pureChainSteps: size(1000, 50),
  pureChain1000Ms: +(await pureChainMs(size(1000, 50))).toFixed(2), // at --tiny: the 50-step chain
  pythonColdMs: +code.pythonColdMs.toFixed(1),
  nodeColdMs: +code.nodeColdMs.toFixed(1),
  pythonMsPerCall: +code.pythonMsPerCall.toFixed(3),
  nodeMsPerCall: +code.nodeMsPerCall.toFixed(3),
  sandbox: isolation.kind,
  unsandboxed: {
    pythonColdMs: +plain.pythonColdMs.toFixed(1),
    nodeColdMs: +plain.nodeColdMs.toFixed(1),
    pythonMsPerCall: +plain.pythonMsPerCall.toFixed(3),
    nodeMsPerCall: +plain.nodeMsPerCall.toFixed(3),
  },
  warmCallRatio: { python: ratio(code.pythonMsPerCall, plain.pythonMsPerCall), node: ratio(code.nodeMsPerCall, plain.nodeMsPerCall) },
  inWorkspace: { pythonMsPerCall: +inWorkspace.pythonMsPerCall.toFixed(3), nodeMsPerCall: +inWorkspace.nodeMsPerCall.toFixed(3) },
  codeStepInRunMs: +(await codeStepInRunMs(size(200, 5), false)).toFixed(3),
  fusedPureCodeStepInRunMs: +(await codeStepInRunMs(size(200, 5), true)).toFixed(3),
  fileReadUs: +(await fileOpUs('file/read')).toFixed(1),
  fileWriteUs: +(await fileOpUs('file/write')).toFixed(1),
  targets: { stageDispatchUs: 5, pureChain1000Ms: 50, codeStepMsPerCall: 5, warmCallRatio: 2 },
  node: process.version,
};
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(0);
