// `stagecraft worker`'s log lines hold text the worker did not make — a run's error it stopped on, the id
// a job carried — and its stderr is mostly a file or a journal, read on a terminal later. An escape
// sequence in that text (retitle the window, clear the screen, a link showing one address and opening
// another) is shown as `\x1b`…, never written raw: here a job whose run id carries them, whose line
// "not driven: No run with id …" quotes it twice. Before, only a worker on a terminal showed them so.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunQueue } from '../lib/queue/run-queue';
import { createTestDatabase } from '../lib/store/testing/pg-test-db';
import { BIN, ROOT, runCli } from './testing/spawn-cli';

const dir = mkdtempSync(path.join(tmpdir(), 'sc-worker-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the worker's log line quoting a job's text shows its escape sequences, to a pipe as well", async () => {
  const database = await createTestDatabase();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, STAGECRAFT_DATA_DIR: path.join(dir, 'data') };
    await runCli(['--version'], { env }); // dist/ current first
    const runId = 'run_\x1b]0;retitled\x07\x1b[2J\x1b]8;;http://elsewhere.example\x07x';
    const queue = await RunQueue.open(database.url);
    await queue.enqueue(runId).finally(() => queue.close());

    const child = spawn(process.execPath, [BIN, 'worker', '--concurrency', '1'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (s: string) => {
        err += s;
        if (err.includes('not driven')) resolve();
      });
      void exited.then((code) => reject(new Error(`the worker exited (${code}) before taking the job: ${err}`)));
    });
    child.kill('SIGTERM');
    assert.equal(await exited, 0, err);
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(err), `a control character reached the worker's log: ${JSON.stringify(err)}`);
    assert.ok(err.includes('stagecraft worker: run run_\\x1b]0;retitled\\x07\\x1b[2J\\x1b]8;;http://elsewhere.example\\x07x: not driven: No run with id run_\\x1b]0;'), err);
  } finally {
    await database.drop();
  }
});
