// The real id source: time-ordered ids with 5 random bytes each, drawn from a pooled CSPRNG buffer
// that is refilled when spent — across many refills no two ids share their random part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomIds } from './system';

test('ids are kind_<ms base36><10 hex>, sorted by time, and their random parts never repeat across refills of the pool', () => {
  const ids = Array.from({ length: 5_000 }, () => randomIds.newId('run')); // several 4 kB pools
  for (const id of ids) assert.match(id, /^run_[0-9a-z]+[0-9a-f]{10}$/);
  assert.equal(new Set(ids.map((id) => id.slice(-10))).size, ids.length);
  const t = (id: string) => parseInt(id.slice(4, -10), 36);
  assert.ok(ids.every((id, i) => i === 0 || t(ids[i - 1]) <= t(id)));
  assert.ok(Math.abs(t(ids[ids.length - 1]) - Date.now()) < 60_000);
});
