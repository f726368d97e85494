// A command's JavaScript is optimized later than V8's default (js-tier.ts): in a child process that
// has run a command through `main`, a function needs about four times as many calls before TurboFan
// optimizes it as in one that has not (recompilation made synchronous, so the count is exact).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from './testing/spawn-cli';
import { INTERRUPT_BUDGET } from './js-tier';

const MAIN = pathToFileURL(path.join(ROOT, 'cli', 'main.ts')).href;

/** calls of a small function until V8 reports it optimized by TurboFan, after `main(['--help'])` when `viaMain` */
function callsToOptimize(viaMain: boolean): number {
  const script = `
    if (process.env.VIA_MAIN === '1') {
      const { main } = await import(${JSON.stringify(MAIN)});
      await main(['--help'], { out: () => {}, err: () => {}, stdin: async () => '' });
    }
    function f(o) { let s = 0; for (let i = 0; i < 10; i++) s += o.a * i + (o.b ? 1 : 0); return s; }
    let n = 0;
    for (; n < 100000; n++) { f({ a: n, b: n & 1 }); if (%GetOptimizationStatus(f) & 16) break; }
    process.stdout.write(String(n));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, VIA_MAIN: viaMain ? '1' : '0' },
  });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout);
}

test('a command raises the interrupt budget four times over', () => {
  assert.equal(INTERRUPT_BUDGET, 4 * 67_584);
  const plain = callsToOptimize(false);
  const command = callsToOptimize(true);
  assert.ok(plain > 0 && plain < 100_000, `optimized after ${plain} calls by default`);
  assert.ok(command >= 3 * plain, `after a command: optimized after ${command} calls, by default ${plain}`);
});
