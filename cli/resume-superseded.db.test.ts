// `stagecraft resume` (every interrupted run) on Postgres while another process drives one of them — its
// own `stagecraft run`, on a throwaway database: the run is not interrupted, and the line said only
// `RUN: superseded`, a word of the kernel's that told a CI log nothing. It now says what that means.
import { slowPythonBundle } from '../lib/queue/testing/slow-bundle';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, ROOT, runCli } from './testing/spawn-cli';
import { usePgTestStore } from './testing/pg-store';

const pg = usePgTestStore();

test('resume of every run, one of them driven by its own `stagecraft run`: said to be driven elsewhere, nothing done, exit 0', async () => {
  const child = spawn(process.execPath, [BIN, 'run', slowPythonBundle('slow_python', { stepAfter: true })], { cwd: ROOT, env: process.env, stdio: 'ignore' });
  const exited = new Promise((r) => child.on('close', r));
  try {
    let runId: string | undefined;
    for (const end = Date.now() + 60_000; !runId && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      const run = (await pg.store().listRuns({ skillName: 'slow_python' }))[0];
      if (run && (await pg.store().readEvents(run.id)).some((e) => e.type === 'step_completed' && e.data.position === '__post__/0')) runId = run.id;
    }
    assert.ok(runId, 'the run reached its slow step');
    const resumed = await runCli(['resume']);
    assert.equal(resumed.code, 0, resumed.err);
    assert.equal(resumed.out, `${runId}: superseded — another process drives it (its own run command, a worker or the app); nothing to do here\n`);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
});
