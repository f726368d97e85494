// `stagecraft run` (and `resume RUN`) on the store, stopped by SIGTERM (a cancelled CI job) or SIGINT
// (Ctrl-C) mid-run, says on stderr which run it leaves and how to take it up — `stagecraft resume RUN`
// — and still dies of the signal. Before, it died saying nothing: the run was left running, its id nowhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { NAP_ONCE_STEP, writeOneStepSkill } from './testing/one-step-skill';
import { stoppedCli, type Stopped } from './testing/stopped-cli';

const t = tempCliEnv('sc-stop-says-');
after(t.cleanup);
const workspace = path.join(t.dir, 'ws');
mkdirSync(workspace);
// the first call marks the workspace and naps long; a resume's call finds the mark and returns at once
const bundle = writeOneStepSkill(t.dir, 'napper', NAP_ONCE_STEP);

function runUntilNapping(signal: NodeJS.Signals): Promise<Stopped> {
  return stoppedCli(['run', bundle, '--workspace', workspace], t.env, signal, () => existsSync(path.join(workspace, 'napping')));
}

test('SIGTERM mid-run names the run and `stagecraft resume RUN`, which then finishes it', async () => {
  const stopped = await runUntilNapping('SIGTERM');
  assert.equal(stopped.signal ?? String(stopped.code), 'SIGTERM', stopped.err);
  const runId = /stopped by SIGTERM: run (run_\w+) stays as it was/.exec(stopped.err)?.[1];
  assert.ok(runId, stopped.err);
  assert.match(stopped.err, new RegExp(`take it up with \`stagecraft resume ${runId}\`, or end it with \`stagecraft abort ${runId}\``));
  const resumed = await runCli(['resume', runId, '--json'], { env: t.env });
  assert.equal(resumed.code, 0, resumed.err);
  assert.deepEqual(JSON.parse(resumed.out).output, { greeting: 'hi', napped: true });
});
