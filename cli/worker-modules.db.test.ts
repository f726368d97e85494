// `stagecraft worker` loads what driving queued runs needs and no more: pg, pg-boss, the kernel and the
// sandbox — not Prisma's client, its adapter or their runtime (~250 ms of CPU to load, once per worker,
// most of its start on a loaded machine). Its registry's beats and its sweep for runs whose job was
// lost are plain SQL, as a resume's reads are (cli/store-modules.db.test.ts). Before, the registry
// went through Prisma's client, so every worker loaded it as it started.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { listWorkersSeen } from '../lib/queue/worker-registry';
import { createTestDatabase } from '../lib/store/testing/pg-test-db';
import { BIN, ROOT, runCli } from './testing/spawn-cli';
import { loadTracer, tracedCli } from './testing/traced-cli';

const PRISMA = /node_modules\/(@prisma\/(client|adapter-pg|driver-adapter-utils|client-runtime-utils))\/|\/generated\/prisma\//;

const dir = mkdtempSync(path.join(tmpdir(), 'sc-worker-modules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('`worker` drives a queued run, registers and sweeps without loading Prisma\'s client', async () => {
  const database = await createTestDatabase();
  const tracer = loadTracer();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, STAGECRAFT_DATA_DIR: path.join(dir, 'data') };
    await tracedCli(['--help'], env); // dist/ current first, untraced
    const summarize = path.join(ROOT, 'examples', 'summarize');
    const queued = await runCli(['run', summarize, '--input', path.join(summarize, 'input.json'), '--queue', '--json'], { env });
    assert.equal(queued.code, 0, queued.err);
    const { runId } = JSON.parse(queued.out) as { runId: string };

    const child = spawn(process.execPath, [...tracer.nodeArgs, BIN, 'worker', '--concurrency', '1'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (s: string) => {
        err += s;
        if (err.includes(`run ${runId}: completed`)) resolve();
      });
      void exited.then((code) => reject(new Error(`the worker exited (${code}) before driving ${runId}: ${err}`)));
    });
    child.kill('SIGTERM');
    assert.equal(await exited, 0, err);

    // it registered, and said it stopped, as the health route lists workers (plain SQL as well)
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const seen = await listWorkersSeen(async (text, values) => (await client.query(text, values)).rows).finally(() => client.end());
    assert.equal(seen.length, 1);
    assert.match(err, new RegExp(`${seen[0].id} drives up to 1 run`));
    assert.equal(seen[0].concurrency, 1);
    assert.ok(seen[0].stoppedAt !== null && seen[0].stoppedAt >= seen[0].startedAt, JSON.stringify(seen[0]));

    const modules = tracer.modules();
    assert.ok(modules.some((m) => /node_modules\/pg-boss\//.test(m)), 'the worker is the queue\'s');
    assert.deepEqual(modules.filter((m) => PRISMA.test(m)), []);
  } finally {
    tracer.done();
    await database.drop();
  }
});
