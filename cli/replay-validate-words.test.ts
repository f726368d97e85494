// `stagecraft replay RUN --skill DIR` after the folder's validate step was added or fixed: the replay's
// validate passed, and records no output (null). Before, the replay printed `replayed: null` under it, read
// as "the step produced nothing"; it says what compare says (noOutputWords): "passed — validate records
// no output". --json keeps the value (null) and carries the same words as `said`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-replay-validate-');
after(cleanup);

const SAID = 'passed — validate records no output';

test('replay of a run whose validate step is new or fixed in the folder says the replay\'s validate passed, not null', async () => {
  const bundle = path.join(root, 'blog_writer');
  cpSync(path.join(ROOT, 'examples/blog_writer'), bundle, { recursive: true });
  const md = path.join(bundle, 'skill.md');
  const withValidate = readFileSync(md, 'utf8');
  const at = withValidate.indexOf('    - type: validate');
  const end = withValidate.indexOf('---', at);
  const input = path.join(bundle, 'input.json');

  // a run without the validate step; the folder then adds it: the replay's __post__/2 is only in the replay
  writeFileSync(md, withValidate.slice(0, at) + withValidate.slice(end));
  const ran = await runCli(['run', bundle, '--input', input], { env });
  assert.equal(ran.code, 0, ran.out + ran.err);
  const runId = /^run (run_\w+): completed$/m.exec(ran.out)?.[1];
  assert.ok(runId, ran.out);
  writeFileSync(md, withValidate);
  const added = await runCli(['replay', runId, '--skill', bundle], { env });
  assert.match(added.out, /__post__\/2 \(processor\): only in B/, added.out + added.err);
  assert.match(added.out, new RegExp(`^ {7}replayed: ${SAID}$`, 'm'));
  assert.doesNotMatch(added.out, /replayed: null/);
  const addedJson = await runCli(['replay', runId, '--skill', bundle, '--json'], { env });
  const d = (JSON.parse(addedJson.out) as { divergences: { position: string; replayed: { value: unknown; said?: string } }[] }).divergences.find((x) => x.position === '__post__/2');
  assert.deepEqual([d?.replayed.value, d?.replayed.said], [null, SAID]);

  // a run failed at a validate step too strict; the folder fixes it: the replay's __post__/2 passed
  writeFileSync(md, withValidate.replace('word_count: { type: integer, minimum: 1 }\n        required', 'word_count: { type: integer, minimum: 100000 }\n        required'));
  const failed = await runCli(['run', bundle, '--input', input], { env });
  assert.equal(failed.code, 1, failed.out + failed.err);
  const failedId = /^run (run_\w+): aborted$/m.exec(failed.out)?.[1];
  assert.ok(failedId, failed.out);
  writeFileSync(md, withValidate);
  const fixed = await runCli(['replay', failedId, '--skill', bundle], { env });
  assert.match(fixed.out, new RegExp(`__post__/2 \\(processor\\): status failed → ok \\(B ${SAID}\\)`), fixed.out + fixed.err);
  assert.doesNotMatch(fixed.out, /→ null/);
  assert.match(fixed.out, new RegExp(`^ {7}~ \\(the value\\): .+ → ${SAID}$`, 'm'));
});
