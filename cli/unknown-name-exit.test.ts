// A skill name or a --version hash that names nothing is what the caller typed, not a run that failed:
// pull, regress, replay and fork exit 2 for it (as for a malformed hash), with the same message — it
// exited 1, which `replay --check` in CI and scripts read as "the command ran and failed".
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-unknown-name-');
after(cleanup);

test('a version hash no version has, given to replay, fork and regress, exits 2 saying so', async () => {
  const run = await runCli(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json'], { env });
  assert.equal(run.code, 0, run.err);
  const runId = JSON.parse(run.out).runId as string;
  for (const argv of [
    ['replay', runId, '--version', 'abcdef1'],
    ['fork', runId, '--at', 'input', '--version', 'abcdef1'],
    ['regress', 'summarize', '--version', 'abcdef1'],
  ]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
    assert.match(r.err, /no version of it has that hash \(abcdef1\)/, argv.join(' '));
    assert.doesNotMatch(r.err, /internal error/);
  }
});
