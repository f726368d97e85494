// Nothing a flood of runs does starves the server, against the built app: with
// STAGECRAFT_MAX_RUNS=2, many runs started at once are all accepted and recorded,
// never more than two are driven at once, the others show `queued` in the API and
// on the pages, every run completes, and the server keeps answering meanwhile.
// Queued runs are recorded: a server stopped with runs waiting admits them when
// it starts again. (`npm run test:load` is the same at 200 runs, with figures.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type AppServer } from './testing/app-server';
import { runLoad, SLOW_SKILL } from './testing/load';

const LIMIT = 2;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-admission-'));
let app: AppServer;
before(async () => {
  app = await startApp({ env: { STAGECRAFT_MAX_RUNS: String(LIMIT) }, dataDir });
});
after(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const r = await fetch(`${app.url}${p}`, { method, headers: { 'content-type': 'application/json', origin: app.url }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (r.headers.get('content-type') ?? '').includes('json') ? await r.json() : await r.text() };
};

describe('STAGECRAFT_MAX_RUNS', () => {
  it('30 runs at once: all accepted, at most 2 driven at once, the rest queued in turn, all completed; the server keeps answering', async () => {
    const f = await runLoad(app, { runs: 30, stepMs: 300, timeoutMs: 120_000 });
    console.log(`# admission under load: ${JSON.stringify(f)}`);
    assert.equal(f.completed, 30, JSON.stringify(f.otherEnds));
    assert.ok(f.maxRunsAtOnce <= LIMIT, `at most ${LIMIT} runs at once, saw ${f.maxRunsAtOnce}`);
    assert.ok(f.maxRunsAtOnce >= 1);
    assert.ok(f.sawQueued >= 10, `runs waited their turn as queued (${f.sawQueued} seen)`);
    assert.ok(f.skillsMs.samples >= 5, 'GET /api/skills was answered all along');
  });

  it('a queued run shows as queued in the API, the runs list and its page; a stopped server admits it when it starts again', async () => {
    await call('POST', '/api/skills/load_probe/versions', { files: SLOW_SKILL(1500) });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const r = await call('POST', '/api/runs', { skill: 'load_probe', input: { n } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.push(r.body.runId);
    }
    const queuedId = ids[4];
    const run = await call('GET', `/api/runs/${queuedId}`);
    assert.equal(run.body.status, 'queued');
    const listed = await call('GET', '/api/runs?status=queued&limit=50');
    assert.ok((listed.body.runs as { runId: string }[]).some((r) => r.runId === queuedId));
    const list = await call('GET', '/runs?status=queued');
    assert.match(String(list.body), /data-status="queued"/);
    const page = await call('GET', `/runs/${queuedId}`);
    assert.match(String(page.body), /The run is queued, waiting for its turn/);

    // stopped with runs queued (and some interrupted): nothing is lost
    await app.stop();
    app = await startApp({ env: { STAGECRAFT_MAX_RUNS: String(LIMIT) }, dataDir });
    for (let i = 0; i < 150; i++) {
      const statuses = await Promise.all(ids.map(async (id) => (await call('GET', `/api/runs/${id}`)).body.status as string));
      if (statuses.every((s) => s === 'completed')) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail('the runs queued before the restart did not all complete after it');
  });
});
