// bench:call --gap MS: the calls are made MS apart (the worker sleeps between them, as between a run's
// steps), and the line says so; a gap that is not a number of milliseconds is refused
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const bench = (...args: string[]) => spawnSync(process.execPath, ['bench/run-compiled.mjs', 'bench/bench-call.ts', '--tiny', ...args], { encoding: 'utf8', timeout: 240_000 });

test('--gap MS waits MS between a reply and the next call, and the line says so', () => {
  const r = bench('--gap', '20');
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  const line = JSON.parse(r.stdout.split('\n').find((l) => l.includes('"sandbox/call"'))!) as Record<string, number>;
  assert.equal(line.gapMs, 20);
  assert.ok(line.msPerCall >= 20, JSON.stringify(line));
});

test('--gap refuses what is not a number of milliseconds', () => {
  const r = bench('--gap', 'soon');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--gap soon: milliseconds between calls/);
});
