// A fork point as a request names it (`at`, any length up to the body's cap) is read in linear time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseForkPosition } from './fork-edits';

test('a fork point of many slashes is read in linear time (80,000 took 10 s), and trailing slashes still go', () => {
  for (const raw of ['/'.repeat(1_000_000) + 'x', `__post__/0${'/'.repeat(1_000_000)}`, '/'.repeat(1_000_000)]) {
    const started = performance.now();
    try {
      parseForkPosition(raw);
    } catch {
      // an empty point is refused: what matters here is how soon
    }
    const ms = performance.now() - started;
    assert.ok(ms < 500, `${raw.length} characters took ${Math.round(ms)} ms`);
  }
  assert.deepEqual(parseForkPosition(' __post__/0// '), { at: '__post__/0', target: 'output' });
  assert.deepEqual(parseForkPosition('draft/r2/pre-tool/1/'), { at: 'draft/r2/tool/1', target: 'input' });
  assert.throws(() => parseForkPosition('///'), /The fork point is empty/);
});
