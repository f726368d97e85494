// `POST /api/runs/<id>/abort` on a run being driven, against the built app on a real Postgres:
// a run a `stagecraft run` process drives is cut short and answered `aborted` (200) within the
// route's wait; a run whose driver holds it without answering is `aborting` (202), and once that
// driver is gone, whoever resumes the run ends it aborted as asked, instead of resuming it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { routes } from '../../api/routes';
import { callRoute } from '../../client/api';
import type { RouteAnswer, RouteDef, RouteInput } from '../../api/route-def';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { startApp, type AppServer } from './testing/app-server';
import { interruptedRun } from './testing/runs';
import { BIN, ROOT } from '../../../cli/testing/spawn-cli';

let db: TestDatabase;
let app: AppServer;
before(async () => {
  db = await createTestDatabase();
  app = await startApp({ env: { DATABASE_URL: db.url }, ...(process.env.ABORT_TEST_PORT ? { port: Number(process.env.ABORT_TEST_PORT) } : {}) });
});
after(async () => {
  await app?.stop();
  await db?.drop();
});

const call = <R extends RouteDef>(route: R, input: RouteInput<R>): Promise<RouteAnswer<R>> => callRoute(route, input, { baseUrl: app.url });
const env = () => ({ ...process.env, DATABASE_URL: db.url });

async function until<T>(what: string, f: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function slowBundle(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-abort-http-'));
  writeFileSync(
    path.join(dir, 'skill.md'),
    `---\nname: ${name}\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n` +
      '    - { type: python, module: ./slow.py, function: quick }\n    - { type: python, module: ./slow.py, function: nap, timeout_ms: 120000 }\n---\nGo.\n\n## go\nGo.\n',
  );
  writeFileSync(path.join(dir, 'slow.py'), 'import time\n\ndef quick(v):\n    return {"quick": True}\n\ndef nap(v):\n    time.sleep(60)\n    return {"napped": True}\n');
  writeFileSync(path.join(dir, 'model.yaml'), 'turns:\n  - finish: {}\n');
  return dir;
}

describe('abort of a run being driven', () => {
  it('a run a CLI process drives: its 60 s python step is cut short and the answer is 200 aborted, recorded as the user’s', async () => {
    const child = spawn(process.execPath, [BIN, 'run', slowBundle('slow_http'), '--json'], { cwd: ROOT, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end('{}');
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? 1)));
    const runId = await until('the run', async () => (await call(routes.listRuns, { query: { skill: 'slow_http' } })).runs[0]?.runId);
    await until('its first step', async () => (await call(routes.listRunEvents, { params: { id: runId }, query: {} })).events.some((e) => e.type === 'step_completed' && e.data.position === '__post__/0'));
    await new Promise((r) => setTimeout(r, 700));
    const started = Date.now();
    const res = await fetch(`${app.url}/api/runs/${runId}/abort`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'changed my mind' }) });
    const body = (await res.json()) as { status: string; error: Record<string, unknown> | null; abortedChildren: string[] };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.status, 'aborted');
    assert.deepEqual([body.error?.requestedBy, body.error?.via], ['user', 'app']);
    assert.match(String(body.error?.message), /aborted on request: changed my mind/);
    assert.ok(Date.now() - started < 6_000);
    assert.equal(await exited, 1, 'the CLI run ends aborted (exit 1)');
    assert.equal(JSON.parse(out).status, 'aborted');
    const run = await call(routes.getRun, { params: { id: runId } });
    assert.equal(run.status, 'aborted');
    assert.match(run.report?.summary ?? '', /Aborted on request by the app: changed my mind/);
  });

  it('a driver that holds the run but does not answer: 202 aborting; once it is gone, a resume ends the run aborted as asked', async () => {
    const { runId } = await interruptedRun({ databaseUrl: db.url, dataDir: app.dataDir });
    const holder = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'lib/server/http/testing/hold-claim.ts'), runId], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'inherit'] });
    const gone = new Promise((r) => holder.on('exit', r));
    let events = -1;
    try {
      await new Promise<void>((resolve, reject) => holder.stdout.on('data', (d: Buffer) => (String(d).includes('not held') ? reject(new Error('the holder did not get the claim')) : String(d).includes('held') && resolve())));
      events = (await call(routes.getRun, { params: { id: runId } })).eventCount;
      const res = await fetch(`${app.url}/api/runs/${runId}/abort`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'stuck' }) });
      assert.equal(res.status, 202);
      assert.deepEqual(await res.json(), { runId, status: 'aborting', error: null, abortedChildren: [] });
      const still = await call(routes.getRun, { params: { id: runId } });
      assert.deepEqual([still.status, still.eventCount], ['running', events], 'nothing written while its driver holds it');
    } finally {
      holder.kill('SIGKILL');
      await gone;
    }
    // its driver died with the request pending: the resume honours it
    // (asked again until the dead holder's claim has dropped: before that a resume is superseded)
    const ended = await until('the run to end', async () => {
      await fetch(`${app.url}/api/runs/${runId}/resume`, { method: 'POST' });
      await new Promise((r) => setTimeout(r, 300));
      const run = await call(routes.getRun, { params: { id: runId } });
      return run.status === 'running' ? null : run;
    });
    assert.equal(ended.status, 'aborted');
    const last = (await call(routes.listRunEvents, { params: { id: runId }, query: {} })).events.at(-1);
    assert.equal(last?.type, 'run_aborted');
    assert.equal(ended.eventCount, events + 1, 'the events it had, then run_aborted: nothing was resumed');
  });
});
