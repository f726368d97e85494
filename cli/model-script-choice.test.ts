// `run --model scripted:NAME` where the bundle holds a script NAME and so does the working directory:
// the bundle's is taken (README), and the run says so on stderr, with how to take the other.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-model-choice-');
after(cleanup);

test("a script name both the bundle and the working directory hold: the bundle's is taken, and said", async () => {
  const bundle = path.join(ROOT, 'examples/summarize');
  copyFileSync(path.join(bundle, 'model.yaml'), path.join(root, 'model.yaml'));
  const r = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json'), '--model', 'scripted:model.yaml'], { env, cwd: root });
  assert.equal(r.code, 0, r.out + r.err);
  assert.ok(r.err.includes(`--model scripted:model.yaml: took the bundle's ${path.join(bundle, 'model.yaml')}, not ${path.join(root, 'model.yaml')}; to take that one, name it by its path`), r.err);
  // one place only: nothing to say
  const alone = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json'), '--model', 'scripted:model.yaml'], { env });
  assert.equal(alone.code, 0, alone.err);
  assert.doesNotMatch(alone.err, /took the bundle's/);
});
