// `resume RUN --model bogus` on a completed run answered its outcome, exit 0, and the bad spec went
// unsaid: the run's state was looked at before the spec. A spec that can name no model is a usage error
// (exit 2) whatever the run's state — a completed run, a run id with no run — before the store opens;
// and --model with no run id (it was silently ignored) says it applies to one run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-resume-model-');
after(cleanup);

test('a malformed model spec given to resume is refused before the run is looked at', async () => {
  const bundle = path.resolve('examples/summarize');
  const run = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json'), '--json'], { env });
  assert.equal(run.code, 0, run.err);
  const runId = JSON.parse(run.out).runId as string;
  for (const [spec, said] of [
    ['bogus', /Unknown model "bogus"\. Use `scripted:FILE`/],
    ['scripted:', /Unknown model "scripted:"/],
    ['replay:x', /A replay model is built from a recorded run/],
  ] as const) {
    for (const id of [runId, 'run_nope']) {
      const r = await runCli(['resume', id, '--model', spec], { env });
      assert.equal(r.code, 2, `${id} ${spec}: ${r.out}${r.err}`);
      assert.match(r.err, said);
      assert.doesNotMatch(r.err, /No run with id/);
      assert.equal(r.out, '');
    }
  }
  // fork checks it in the same order: before the run is looked up
  const fork = await runCli(['fork', 'run_nope', '--model', 'bogus'], { env });
  assert.equal(fork.code, 2, fork.out + fork.err);
  assert.match(fork.err, /Unknown model "bogus"/);
  const all = await runCli(['resume', '--model', 'openai'], { env });
  assert.equal(all.code, 2, all.out + all.err);
  assert.match(all.err, /--model applies to one run: name it/);
  // a well-formed spec, and none, still answer a completed run's outcome
  const again = await runCli(['resume', runId, '--json'], { env });
  assert.equal(again.code, 0, again.err);
  assert.equal(JSON.parse(again.out).status, 'completed');
});
