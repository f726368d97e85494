// `stagecraft run` of a run that fails at a step ends by saying how to go on from there once the cause
// is fixed — the command the run page's Rerun from here is — and that command does it: before, the
// failed run's output said what failed and stopped, and a user started over with a new run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-run-take-on-');
after(cleanup);

test('a run failed at a step says `stagecraft fork RUN` reruns it from there; a completed run says nothing of it', async () => {
  const bundle = path.join(root, 'blog_writer');
  cpSync(path.join(ROOT, 'examples/blog_writer'), bundle, { recursive: true });
  const code = path.join(bundle, 'rendering.py');
  const fixed = readFileSync(code, 'utf8');
  writeFileSync(code, fixed.replace('value["body"]))', 'value["text"]))'));
  const failed = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json')], { env });
  assert.equal(failed.code, 1, failed.out + failed.err);
  const runId = /^run (run_\w+): aborted$/m.exec(failed.out)?.[1];
  assert.ok(runId, failed.out);
  const last = failed.out.trimEnd().split('\n').pop();
  assert.equal(last, `next: fix the cause, then \`stagecraft fork ${runId}\` reruns it from __post__/1: what came before is answered from this run's recording, so no model is called for it.`);

  // as it says: fixed, the fork finishes the run
  writeFileSync(code, fixed);
  const rerun = await runCli(['fork', runId], { env });
  assert.equal(rerun.code, 0, rerun.out + rerun.err);
  assert.match(rerun.out, new RegExp(`^fork of run ${runId} at __post__/1 \\(version \\w+\\):\\nreused from ${runId}'s recording \\(not run again\\): 2 model turns, 1 processor step; the rest ran live\\n`));
  assert.doesNotMatch(rerun.out, /^next:/m);
  // the version is the folder's, as edited: said new, beside the one the parent ran
  const hash = /^fork of run \w+ at __post__\/1 \(version (\w+)\):/.exec(rerun.out)![1];
  const from = new RegExp(`^with version ${hash} from (.+), new: the folder's files as they are now \\(the parent ran (\\w{12})\\)$`, 'm').exec(rerun.out);
  assert.ok(from, rerun.out);
  assert.equal(from[1], bundle);
  assert.notEqual(from[2], hash);
  const ok = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json')], { env });
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.doesNotMatch(ok.out, /^next:/m);
});
