// `run DIR --input '{"path":"x"}'` (and `fork RUN --value '{…}'`): the JSON itself where a file is named.
// The error says, after what it said ("--input {…} does not exist: check the path."), that the flag takes
// a file path or - (standard input), with the pasteable command giving that JSON on stdin. A path that is
// not there and looks like no JSON is said as before. Before, the error never said what the flag takes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';

const t = tempCliEnv('sc-json-as-path-');
after(t.cleanup);
const bundle = writeOneStepSkill(t.dir, 'plain', 'export async function step() { return {}; }\n');

test('--input with JSON in place of a file: exit 2, saying it takes a file path or -', async () => {
  const r = await runCli(['run', bundle, '--input', '{"path":"x"}'], { env: t.env });
  assert.equal(r.code, 2, r.err);
  assert.equal(
    r.err.split('\n')[0],
    `stagecraft: --input {"path":"x"} does not exist: check the path. --input takes a file path or - (standard input), not the JSON itself: --input - <<< '{"path":"x"}'`,
  );
  // as it says: the JSON on stdin is the run's input
  const ok = await runCli(['run', bundle, '--input', '-', '--json'], { env: t.env, stdin: '{"path":"x"}' });
  assert.equal(ok.code, 0, ok.err);
});

test('--value with a JSON array in place of a file: the same; a missing path as before', async () => {
  const r = await runCli(['fork', 'run_none', '--at', 'input', '--value', ' [1, 2]'], { env: t.env });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /^stagecraft: --value {2}\[1, 2\] does not exist: check the path\. --value takes a file path or - \(standard input\), not the JSON itself: --value - <<< ' \[1, 2\]'\n/);
  const missing = await runCli(['run', bundle, '--input', 'nope.json'], { env: t.env });
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^stagecraft: --input nope\.json does not exist: check the path\.\n/);
});
