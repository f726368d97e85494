import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { executeOp } from '../lib/kernel/ops/execute';
import { deps, playModel } from '../lib/kernel/testing';
import type { RunContext } from '../lib/kernel/context';
import { createWorkspaceFiles } from '../lib/sandbox/workspace-files';
import { workspaceQuotaFromEnv } from '../lib/sandbox/workspace-usage';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hr = () => Number(process.hrtime.bigint()) / 1e6;
const root = mkdtempSync(path.join(tmpdir(), 'sc-bench-files-'));
writeFileSync(path.join(root, 'notes.txt'), 'x'.repeat(4096));
const files = createWorkspaceFiles({ root, quota: workspaceQuotaFromEnv({}) });
const ctx = { deps: deps(playModel([]), { files }), plan: { bundleDir: root }, runId: 'r' } as unknown as RunContext;
async function time(op: string, args: Record<string,string>) {
  const N = 2000;
  for (let i = 0; i < 200; i++) await executeOp(ctx, op, args, 'p');
  const reps: number[] = [];
  for (let r = 0; r < 5; r++) { const t = hr(); for (let i = 0; i < N; i++) await executeOp(ctx, op, args, 'p'); reps.push(((hr() - t) * 1000) / N); }
  return +median(reps).toFixed(1);
}
console.log(JSON.stringify({ fileReadUs: await time('file/read', { path: 'notes.txt' }), fileWriteUs: await time('file/write', { path: 'out/w.txt', content: 'y'.repeat(4096) }), fileReadNestedUs: await time('file/read', { path: 'out/w.txt' }) }));
