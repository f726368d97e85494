// `stagecraft runs --failed AT` with a point no run failed at (a typo, a made-up word) says so on stderr,
// what --failed takes and the failure points the runs have, as a --skill no skill has is said: a filter
// that matches nothing yet is still a filter (exit 0: a script may ask before any run failed there).
// A point some run failed at lists as before, "no runs match these filters" when the other filters leave
// none. Before, `--failed bogus` said "no runs match these filters" alone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';

const t = tempCliEnv('sc-runs-failed-');
after(t.cleanup);
const bundle = writeOneStepSkill(t.dir, 'thrower', "export async function step() { throw new Error('no'); }\n");

test('--failed with a point no run failed at: nothing listed, exit 0, saying what it takes', async () => {
  const none = await runCli(['runs', '--failed', 'bogus'], { env: t.env });
  assert.equal(none.code, 0, none.err);
  assert.match(none.err, /^no run failed at bogus: --failed takes a failure point, .*; no run here has failed yet$/m);

  const failed = await runCli(['run', bundle, '--json'], { env: t.env });
  assert.equal(failed.code, 1, failed.err);
  const runId = (JSON.parse(failed.out) as { runId: string }).runId;

  const bogus = await runCli(['runs', '--failed', 'bogus'], { env: t.env });
  assert.equal(bogus.code, 0, bogus.err);
  assert.match(bogus.err, /^no runs match these filters\nno run failed at bogus: --failed takes a failure point, as the FAILED column of `stagecraft runs` shows it: .*; the runs here failed at __post__\/0$/m);
  assert.equal(bogus.out, '');
  const json = await runCli(['runs', '--failed', 'bogus', '--json'], { env: t.env });
  assert.equal(json.code, 0);
  assert.deepEqual((JSON.parse(json.out) as { runs: unknown[] }).runs, []);

  const there = await runCli(['runs', '--failed', '__post__/0'], { env: t.env });
  assert.equal(there.code, 0, there.err);
  assert.match(there.out, new RegExp(`^${runId}\\s+aborted\\s`));
  const hidden = await runCli(['runs', '--failed', '__post__/0', '--status', 'completed'], { env: t.env });
  assert.equal(hidden.code, 0, hidden.err);
  assert.match(hidden.err, /no runs match these filters/);
});
