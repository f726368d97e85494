// `stagecraft runs` that lists nothing says so (on stderr, as its "more:" line: stdout stays one
// line per run) — before, a store with no runs, or filters nothing matched, printed nothing at all.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-runs-empty-');
after(cleanup);

test('runs with nothing to list says so, and what it looked for', async () => {
  const none = await runCli(['runs'], { env });
  assert.equal(none.code, 0, none.err);
  assert.equal(none.out, '');
  assert.match(none.err, /^no runs yet\b/m);
  const filtered = await runCli(['runs', '--status', 'queued', '--search', 'Zoë'], { env });
  assert.equal(filtered.code, 0, filtered.err);
  assert.equal(filtered.out, '');
  assert.match(filtered.err, /^no runs match these filters\b/m);
  const json = await runCli(['runs', '--json'], { env });
  assert.deepEqual(JSON.parse(json.out).runs, []);
  assert.doesNotMatch(json.err, /no runs/);
});

// `runs --since 2030-01-01 --until 2020-01-01` answered "no runs match these filters" (exit 0): a range
// that ends before it starts is the flags' mistake
test('a --since after --until is a usage error naming both, not an empty list', async () => {
  const r = await runCli(['runs', '--since', '2030-01-01', '--until', '2020-01-01'], { env });
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.err, /^stagecraft: --since 2030-01-01 is after --until 2020-01-01: no run can match\. Swap them/m);
  assert.equal(r.out, '');
  const ok = await runCli(['runs', '--since', '2020-01-01', '--until', '2030-01-01'], { env });
  assert.equal(ok.code, 0, ok.err);
});
