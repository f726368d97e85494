// A `stagecraft run` killed outright (SIGKILL: the OOM killer, a CI runner lost) says nothing, and its
// run stays recorded as `running`. On the embedded store `stagecraft runs` holds the store itself, so
// no process can be driving such a run: the list said `running` and nothing more, as if it went on.
// It now says, on stderr under the table (and under the run's `events`), that nobody drives it and how
// to take it up or end it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { killedRun as killedRunOf } from './testing/killed-run';
import { writeOneStepSkill } from './testing/one-step-skill';

const t = tempCliEnv('sc-runs-undriven-');
after(t.cleanup);
const napper = `import { writeFileSync } from 'node:fs';
export async function step() {
  writeFileSync('napping', '');
  await new Promise((r) => setTimeout(r, 60000));
  return { napped: true };
}
`;
const bundle = writeOneStepSkill(t.dir, 'napper', napper);

/** a run of the napper (in a workspace of its own), its command SIGKILLed mid-step */
const killedRun = (name: string) => killedRunOf(bundle, path.join(t.dir, name), t.env);

test('runs on the embedded store says a run left running is driven by no process, and how to resume or abort it', async () => {
  await killedRun('first');
  const listed = await runCli(['runs'], { env: t.env });
  assert.equal(listed.code, 0, listed.err);
  const [line, ...others] = listed.out.trim().split('\n');
  assert.equal(others.length, 0, listed.out);
  const runId = /^(run_\w+)\s+running\b/.exec(line)?.[1];
  assert.ok(runId, listed.out);
  assert.match(
    listed.err,
    new RegExp(`^run ${runId} is recorded as running, but no process drives it: the embedded store is this command's, so whatever ran it stopped\\. Take it up with \`stagecraft resume ${runId}\`, or end it with \`stagecraft abort ${runId}\`\\.$`, 'm'),
  );
  // its log stops mid-run: `events` says why nothing follows, under it (its lines stay on stdout)
  const log = await runCli(['events', runId], { env: t.env });
  assert.equal(log.code, 0, log.err);
  assert.match(log.out, /step_completed/);
  assert.ok(log.err.includes(`run ${runId} is recorded as running, but no process drives it`), log.err);
  // --json stays the API's run views, nothing added to stdout
  const json = await runCli(['runs', '--json'], { env: t.env });
  assert.equal(JSON.parse(json.out).runs[0].status, 'running');
  assert.doesNotMatch(json.err, /no process drives/);
  // a second one: said once for both, with the command that takes them all up
  await killedRun('second');
  const two = await runCli(['runs'], { env: t.env });
  assert.match(two.err, /^2 runs listed are recorded as running, but no process drives them: the embedded store is this command's, so whatever ran them stopped\. Take them up with `stagecraft resume` \(all of them\) or `stagecraft resume RUN`, or end one with `stagecraft abort RUN`\.$/m);
  // once ended, nothing is said
  for (const id of two.out.trim().split('\n').map((l) => l.split(/\s+/)[0])) {
    const aborted = await runCli(['abort', id], { env: t.env });
    assert.equal(aborted.code, 0, aborted.err);
  }
  const ended = await runCli(['runs'], { env: t.env });
  assert.doesNotMatch(ended.err, /no process drives/);
  assert.doesNotMatch((await runCli(['events', runId], { env: t.env })).err, /no process drives/);
});
