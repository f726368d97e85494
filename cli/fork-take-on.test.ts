// `stagecraft fork RUN` of a failed run that fails again at the same step ends, as `run` and `resume`
// do (run-take-on.test, resume-take-on.test), with the `next:` line naming the command that takes the
// fork on from there once the cause is fixed. Before, the fork said what failed and stopped.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-fork-take-on-');
after(cleanup);

const nextLine = (runId: string) =>
  `next: fix the cause, then \`stagecraft fork ${runId}\` reruns it from __post__/1: what came before is answered from this run's recording, so no model is called for it.`;

test('a fork failed again at the same step says `stagecraft fork FORK` reruns it from there', async () => {
  const bundle = path.join(root, 'blog_writer');
  cpSync(path.join(ROOT, 'examples/blog_writer'), bundle, { recursive: true });
  const code = path.join(bundle, 'rendering.py');
  writeFileSync(code, readFileSync(code, 'utf8').replace('value["body"]))', 'value["text"]))'));
  const failed = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json')], { env });
  assert.equal(failed.code, 1, failed.out + failed.err);
  const runId = /^run (run_\w+): aborted$/m.exec(failed.out)?.[1];
  assert.ok(runId, failed.out);

  // not fixed: the fork fails where its parent did
  const again = await runCli(['fork', runId], { env });
  assert.equal(again.code, 1, again.out + again.err);
  const forkId = /^run (run_\w+): aborted$/m.exec(again.out)?.[1];
  assert.ok(forkId && forkId !== runId, again.out);
  assert.equal(again.out.trimEnd().split('\n').pop(), nextLine(forkId));
  // --json keeps its one object
  const json = await runCli(['fork', forkId, '--json'], { env });
  assert.equal(json.code, 1, json.err);
  assert.equal((JSON.parse(json.out) as { status: string }).status, 'aborted');
});
