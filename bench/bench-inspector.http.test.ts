// `npm run bench:inspector -- --tiny` once, as `npm test` runs every bench: against the built app in
// Chromium, a small loop run and a small runs list; its one JSON line carries every figure, each measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

test('bench:inspector --tiny prints one JSON line of measured figures', () => {
  // compiled, as `npm run bench:inspector` runs it (bench/run-compiled.mjs)
  const r = spawnSync(process.execPath, ['bench/run-compiled.mjs', 'bench/bench-inspector.ts', '--tiny'], { encoding: 'utf8', timeout: 300_000, env: { ...process.env } });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  const lines = r.stdout.trim().split('\n').filter((l) => l.startsWith('{'));
  assert.equal(lines.length, 1, r.stdout);
  const f = JSON.parse(lines[0]) as Record<string, unknown>;
  assert.equal(f.bench, 'inspector');
  assert.equal(f.tiny, true);
  assert.equal(f.compiled, true);
  assert.ok((f.events as number) >= 250, `events ${f.events}`);
  assert.equal(f.scrubSteps, 10);
  for (const k of ['floorMs', 'firstPaintMs', 'firstPaintColdMs', 'firstPaintRatio', 'scrubP50Ms', 'scrubP95Ms', 'jumpP95Ms', 'runsFirstPaintMs', 'runsFilterMs']) {
    assert.ok(typeof f[k] === 'number' && Number.isFinite(f[k]) && (f[k] as number) > 0, `${k}: ${String(f[k])}`);
  }
  assert.ok(['timeline', 'run status'].includes(f.firstPaintOf as string));
  assert.ok((f.scrubP50Ms as number) <= (f.scrubP95Ms as number));
});
