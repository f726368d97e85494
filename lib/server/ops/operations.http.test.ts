// Operations against the built app, on a private Postgres server of the test's
// own: GET /api/health (store, sandbox, queue depth, workers seen) behind the
// token like every route; the app's runs exported as spans; while the database
// is down the API answers 503 store_unreachable (never 500) and the pages say the
// store is unreachable (naming its database and server), with a 503 too, and both come back with it; with
// STAGECRAFT_WORKERS=external, POST /api/runs queues the run and a
// `stagecraft worker` drives it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startApp, type AppServer } from '../http/testing/app-server';
import { createPrivatePostgres, type PrivatePostgres } from '../../store/testing/private-pg';
import { createTestDatabase } from '../../store/testing/pg-test-db';
import { startOtlpReceiver, type OtlpReceiver } from '../../telemetry/testing/otlp-receiver';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const TOKEN = 'ops-test-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

let pg: PrivatePostgres;
let url: string;
let receiver: OtlpReceiver;
const apps: AppServer[] = [];
before(async () => {
  pg = await createPrivatePostgres({ prefix: 'sc-ops-pg-' });
  url = (await createTestDatabase(pg.adminUrl)).url;
  receiver = await startOtlpReceiver();
});
after(async () => {
  for (const a of apps) await a.stop();
  await receiver?.close();
  pg?.remove();
});

async function get(app: AppServer, p: string, headers: Record<string, string> = auth): Promise<{ status: number; body: any; text: string }> {
  const r = await fetch(`${app.url}${p}`, { headers });
  const text = await r.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: r.status, body, text };
}

async function startRun(app: AppServer): Promise<string> {
  const r = await fetch(`${app.url}/api/runs`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ skill: 'research_brief', input: { question: 'What did the reading pilot achieve?' } }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  return ((await r.json()) as { runId: string }).runId;
}

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('health, the app’s traces, and the database going away and coming back', async () => {
  const app = await startApp({ env: { DATABASE_URL: url, STAGECRAFT_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  apps.push(app);

  assert.equal((await get(app, '/api/health', {})).status, 401, 'the health route needs the token like every route');
  const health = await get(app, '/api/health');
  assert.equal(health.status, 200, health.text);
  assert.equal(health.body.status, 'ok');
  assert.deepEqual([health.body.store.reachable, health.body.store.backend], [true, 'postgres']);
  assert.ok(['off', 'auto', 'required'].includes(health.body.sandbox.mode));
  assert.equal(typeof health.body.sandbox.isolated, 'boolean');
  assert.deepEqual(health.body.runs, { drivenBy: 'in-process', queueDepth: 0, queued: 0, running: 0 });
  assert.deepEqual(health.body.workers, []);

  // a run of the app: driven by the app (its log says so) and sent as spans by it
  const runId = await startRun(app);
  const run = await until('the run to end', async () => {
    const r = await get(app, `/api/runs/${runId}`);
    return r.body?.status === 'completed' ? r.body : null;
  });
  assert.equal(run.drivers.length, 1);
  assert.equal(run.drivers[0].kind, 'app');
  assert.equal(run.drivers[0].fromSeq, 1);
  const root = await until('the app to send the run', async () => receiver.spans().find((s) => s.attributes['stagecraft.run.id'] === runId) ?? null);
  assert.equal(root.name, 'invoke_agent research_brief');
  assert.equal(root.attributes['stagecraft.driver.kind'], 'app');

  pg.stop('fast');
  try {
    for (const p of ['/api/runs', `/api/runs/${runId}`, '/api/skills']) {
      const r = await get(app, p);
      assert.equal(r.status, 503, `${p} while the database is down: ${r.text}`);
      assert.equal(r.body.error.code, 'store_unreachable', p);
      assert.match(r.body.error.message, /database.* is unreachable/, p);
    }
    const down = await get(app, '/api/health');
    assert.equal(down.status, 503);
    assert.equal(down.body.status, 'store_unreachable');
    assert.equal(down.body.store.reachable, false);
    assert.ok(down.body.store.error.length > 0);
    // the pages say so, naming the database and its server as DATABASE_URL gives them (no password), with a 503
    const db = new URL(url);
    const where = new RegExp(`the Postgres database (&quot;|")${db.pathname.slice(1)}(&quot;|") on ${db.hostname.replace(/\./g, '\\.')}:${db.port}`);
    for (const p of ['/', '/runs', `/runs/${runId}`]) {
      const page = await get(app, p);
      assert.equal(page.status, 503, p);
      assert.match(page.text, /The store is unreachable/, `${p} says the store is unreachable`);
      assert.match(page.text, where, `${p} names the database and its server`);
      assert.match(page.text, /Check that this Postgres server is running/);
      if (db.password) assert.ok(!page.text.includes(db.password), `${p} shows no password`);
    }
  } finally {
    pg.start();
  }
  // connections come back with the database
  const back = await until('the API to answer again', async () => {
    const r = await get(app, '/api/runs');
    return r.status === 200 ? r : null;
  });
  assert.ok(back.body.runs.some((r: { runId: string }) => r.runId === runId));
  const page = await get(app, '/runs');
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.text, /The store is unreachable/);
  assert.equal((await get(app, '/api/health')).status, 200);
  await app.stop();
});

test('STAGECRAFT_WORKERS=external: POST /api/runs queues the run, health counts it, a worker drives it and is listed', async () => {
  const app = await startApp({ env: { DATABASE_URL: url, STAGECRAFT_TOKEN: TOKEN, STAGECRAFT_WORKERS: 'external' } });
  apps.push(app);
  const runId = await startRun(app);
  const queued = await get(app, `/api/runs/${runId}`);
  assert.equal(queued.body.status, 'queued');
  assert.deepEqual(queued.body.drivers, []);
  const h = await get(app, '/api/health');
  assert.equal(h.body.runs.drivenBy, 'external');
  assert.equal(h.body.runs.queued, 1);
  assert.equal(h.body.runs.queueDepth, 1);
  assert.ok((await get(app, '/api/runs?status=queued')).body.runs.some((r: { runId: string }) => r.runId === runId));

  const worker = spawn(process.execPath, [path.join(ROOT, 'bin/stagecraft.mjs'), 'worker', '--concurrency', '2'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, STAGECRAFT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sc-ops-worker-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  worker.stderr.on('data', (d) => (err += d));
  try {
    const done = await until('the worker to drive the run', async () => {
      const r = await get(app, `/api/runs/${runId}`);
      return r.body?.status === 'completed' ? r.body : null;
    });
    assert.equal(done.drivers[0].kind, 'worker');
    assert.match(done.drivers[0].worker, /-\d+-[0-9a-f]{6}$/);
    const seen = await get(app, '/api/health');
    assert.equal(seen.body.workers.length, 1, err);
    assert.equal(seen.body.workers[0].id, done.drivers[0].worker);
    assert.equal(seen.body.workers[0].concurrency, 2);
    assert.equal(seen.body.runs.queueDepth, 0);
  } finally {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  }
  await app.stop();
});
