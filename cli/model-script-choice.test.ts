// `run --model scripted:NAME` where the bundle holds a script NAME and so does the working directory:
// the bundle's is taken (README), and the run says so on stderr, with how to take the other.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
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

test('a folder with no model.yaml and no endpoint: the error names the folder run was given (not its copy in the data dir) and where model scripts are told, exit 2', async () => {
  const bundle = path.join(root, 'greeter');
  mkdirSync(bundle, { recursive: true });
  copyFileSync(path.join(ROOT, 'examples/summarize/skill.md'), path.join(bundle, 'skill.md'));
  copyFileSync(path.join(ROOT, 'examples/summarize/sanitize.py'), path.join(bundle, 'sanitize.py'));
  writeFileSync(path.join(bundle, 'report.txt'), 'text');
  const noEndpoint = { ...env };
  delete noEndpoint.STAGECRAFT_MODEL_BASE_URL;
  const r = await runCli(['run', 'greeter'], { env: noEndpoint, cwd: root });
  assert.equal(r.code, 2, r.out + r.err);
  assert.ok(r.err.includes(`stagecraft: No model: the bundle ${bundle} has no model.yaml script and STAGECRAFT_MODEL_BASE_URL is not set. Pass --model scripted:FILE or configure an OpenAI-compatible endpoint.`), r.err);
  assert.ok(r.err.includes('see "Model scripts" in docs/skill-md.md'), r.err);
  assert.doesNotMatch(r.err, /bundles\//);
});

// `run DIR --model scripted:NAME` naming no file said where it looked as the bundle's copy in the data dir
// (`looked at <data dir>/bundles/<hash>/NAME and …`), a folder its author never wrote to, and not what to do
test('a script name no file has: the error names the folder run was given (not its copy in the data dir) and what to pass, exit 2', async () => {
  const bundle = path.join(ROOT, 'examples/summarize');
  const r = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json'), '--model', 'scripted:nope.yaml'], { env, cwd: root });
  assert.equal(r.code, 2, r.out + r.err);
  assert.ok(r.err.includes(`stagecraft: Model script nope.yaml not found; looked at nope.yaml in the bundle ${bundle} and ${path.join(root, 'nope.yaml')}. `), r.err);
  assert.match(r.err, /Name a file that is there: a path from the bundle folder or the working directory, or an absolute one\./);
  assert.doesNotMatch(r.err, /bundles\//);
});
