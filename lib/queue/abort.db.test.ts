// Abort of a run a `stagecraft worker` drives: the worker hears of the request, kills the python
// step in flight (it would sleep 60 s), ends the run aborted on request and settles its job; it
// goes on serving. On a throwaway database of the local Postgres.
import { slowPythonBundle } from './testing/slow-bundle';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type OpenedStore } from '../store';
import { createTestDatabase, type TestDatabase } from '../store/testing/pg-test-db';
import { hostFor, type Host } from '../server/host';
import { enqueueSkillRun } from '../server/runs/enqueue-run';
import { closeRunQueues } from '../server/runs/run-source';
import { abortSkillRun } from '../server/runs/resume-run';
import { awaitAbort } from '../server/runs/await-abort';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
let db: TestDatabase;
let store: OpenedStore;
let host: Host;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-abort-worker-'));
before(async () => {
  db = await createTestDatabase();
  store = await openStore({ databaseUrl: db.url });
  host = hostFor({ store, skills: store.skills, env: { ...process.env, DATABASE_URL: db.url, STAGECRAFT_DATA_DIR: dataDir }, cwd: ROOT });
});
after(async () => {
  await closeRunQueues();
  await store?.close();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(what: string, f: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a run a worker drives is aborted from here: its 60 s python step killed, the run aborted on request, the worker goes on', async () => {
  const bundle = slowPythonBundle('slow_worker');
  const { runId } = await enqueueSkillRun(host, { bundle, input: {} });
  const worker = spawn(process.execPath, [path.join(ROOT, 'bin/stagecraft.mjs'), 'worker', '--concurrency', '1'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, STAGECRAFT_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  worker.stdout.on('data', (d) => (out += d));
  worker.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
  try {
    await until('the worker to reach the slow step', async () => (await store.readEvents(runId)).some((e) => e.type === 'step_completed' && e.data.position === '__post__/0'));
    await new Promise((r) => setTimeout(r, 700));
    const started = Date.now();
    const { outcome } = await abortSkillRun(host, runId, 'stop it', { via: 'cli', requestedBy: 'cli (user test)' });
    // the worker holds the run, so the request is left to it: `aborting` — or `aborted` when the worker honoured it
    // before this call looked again (abortRun found the claim free and the run already aborted); the worker's own
    // line below says it was the worker either way
    assert.ok(['aborting', 'aborted'].includes(outcome.status), `the worker holds the run: the request is left to it (${outcome.status})\n${out}`);
    const landed = await awaitAbort(host, outcome, 20_000);
    assert.equal(landed.status, 'aborted', out);
    assert.ok(Date.now() - started < 20_000);
    assert.deepEqual([landed.run.error?.requestedBy, landed.run.error?.via], ['user', 'cli']);
    const log = await store.readEvents(runId);
    assert.equal(log.at(-1)?.type, 'run_aborted');
    assert.deepEqual(log.at(-1)?.data.abort, { by: 'request', reason: 'stop it', requestedBy: 'cli (user test)' });
    assert.deepEqual(log.filter((e) => e.type === 'step_completed' && String(e.data.position).startsWith('__post__')).map((e) => e.data.position), ['__post__/0']);
    await until('the worker to settle the job', async () => out.includes(`run ${runId}: aborted`), 20_000);
    assert.equal(worker.exitCode, null, 'the worker goes on serving');
  } finally {
    worker.kill('SIGTERM');
  }
  assert.equal(await exited, 0, out);
});
