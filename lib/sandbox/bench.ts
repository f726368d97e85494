/**
 * Measures what a code step costs: the cold first call (spawn + import + call)
 * and the warm per-call average once the worker is up, for python and node.
 *
 * Owns: the trivial benchmark modules (written to a temp dir) and the timing.
 * Does not: print or judge the figures — scripts/bench-kernel.ts and
 * scripts/bench-sandbox.ts do.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CodeCall } from '../kernel/ports';
import { createCodeSandbox } from './sandbox';
import type { Isolation } from './isolation';
import { workspaceQuotaFromEnv } from './workspace-usage';

export type CodeStepBench = {
  pythonColdMs: number;
  nodeColdMs: number;
  pythonMsPerCall: number;
  nodeMsPerCall: number;
};

const WARM_UP_CALLS = 20;
const BENCH_TIMEOUT_MS = 30_000;

/** `inWorkspace`: the calls run in a workspace with the default quota, checked around each call as in a run */
export async function benchCodeSteps({ calls, isolation, inWorkspace = false }: { calls: number; isolation?: Isolation; inWorkspace?: boolean }): Promise<CodeStepBench> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stagecraft-bench-'));
  const workDir = path.join(dir, 'workspace');
  if (inWorkspace) await mkdir(workDir);
  const sandbox = createCodeSandbox({ isolation, ...(inWorkspace ? { workDir, bundleDir: dir, workspaceQuota: workspaceQuotaFromEnv({}) } : {}) });
  try {
    const py = path.join(dir, 'bench_step.py');
    const js = path.join(dir, 'bench_step.mjs');
    await writeFile(py, 'def echo(value):\n    return {"n": value["n"] + 1}\n');
    await writeFile(js, 'export function echo(value) {\n  return { n: value.n + 1 };\n}\n');
    const python = await measure((n) => sandbox.call(codeCall('python', py, n)), calls);
    const node = await measure((n) => sandbox.call(codeCall('node', js, n)), calls);
    return {
      pythonColdMs: python.coldMs,
      nodeColdMs: node.coldMs,
      pythonMsPerCall: python.msPerCall,
      nodeMsPerCall: node.msPerCall,
    };
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function codeCall(language: CodeCall['language'], modulePath: string, n: number): CodeCall {
  return { language, modulePath, exportName: 'echo', input: { n }, timeoutMs: BENCH_TIMEOUT_MS };
}

async function measure(
  call: (n: number) => Promise<unknown>,
  calls: number,
): Promise<{ coldMs: number; msPerCall: number }> {
  const coldStart = performance.now();
  await call(0);
  const coldMs = performance.now() - coldStart;
  for (let i = 0; i < WARM_UP_CALLS; i++) await call(i);
  const warmStart = performance.now();
  for (let i = 0; i < calls; i++) await call(i);
  const msPerCall = (performance.now() - warmStart) / Math.max(1, calls);
  return { coldMs: round(coldMs), msPerCall: round(msPerCall) };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
