// The runs API against the built app on a real Postgres, as the inspector and scripts meet it: the
// list's filters, search and keyset pages, the chart's aggregate, a run's event stream (live, from
// Last-Event-ID, ending with the run, following a run another process drives), and resume and abort
// of interrupted runs — a changed skill refused before anything new runs, an abort recorded as the
// user's. Interrupted runs are made as crashes make them: their driver is SIGKILLed mid-run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../api/routes';
import { callRoute, ApiError } from '../../client/api';
import type { RouteAnswer, RouteDef, RouteInput } from '../../api/route-def';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { startApp, type AppServer } from './testing/app-server';
import { interruptedRun, readSse, resumeElsewhere } from './testing/runs';

let db: TestDatabase;
let app: AppServer;
before(async () => {
  db = await createTestDatabase();
  app = await startApp({ env: { DATABASE_URL: db.url } });
});
after(async () => {
  await app?.stop();
  await db?.drop();
});

const call = <R extends RouteDef>(route: R, input: RouteInput<R>): Promise<RouteAnswer<R>> => callRoute(route, input, { baseUrl: app.url });

/** the error a call ends with */
async function refused<R extends RouteDef>(route: R, input: RouteInput<R>): Promise<ApiError> {
  try {
    await call(route, input);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error(`${route.method} ${route.path} was to be refused`);
}

async function waitForEnd(id: string) {
  for (let i = 0; i < 300; i++) {
    const run = await call(routes.getRun, { params: { id } });
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${id} did not end`);
}

const where = () => ({ databaseUrl: db.url, dataDir: app.dataDir });
const summarizeInput = { path: 'report.txt' };

describe('the runs list', () => {
  let failing: string;
  const ok: string[] = [];
  before(async () => {
    // a skill whose postprocessor step 1 raises (on_error: fail): its runs abort there
    await call(routes.createSkill, { body: { name: 'list_breaker', from: 'blog_writer' } });
    const files = (await call(routes.getSkill, { params: { name: 'list_breaker' } })).version!.files;
    const rendering = 'def to_html(value):\n    return {"html_rendered": ""}\n\ndef count_words(value):\n    raise KeyError("wordcount_for_the_list_test")\n';
    await call(routes.saveVersion, { params: { name: 'list_breaker' }, body: { files: { ...files, 'rendering.py': rendering } } });
    const input = JSON.parse(files['input.json']);
    failing = (await call(routes.startRun, { body: { skill: 'list_breaker', input } })).runId;
    for (let i = 0; i < 3; i++) ok.push((await call(routes.startRun, { body: { skill: 'summarize', input: summarizeInput } })).runId);
    await Promise.all([failing, ...ok].map(waitForEnd));
  });

  it('a row says how a run ended and where it failed; "needs attention", the failure point and the search find it', async () => {
    const attention = await call(routes.listRuns, { query: { attention: true } });
    const row = attention.runs.find((r) => r.runId === failing);
    assert.ok(row, 'the run aborted by a step needs attention');
    assert.deepEqual([row.status, row.outcome, row.failedAt, row.needsAttention], ['aborted', 'blocked', '__post__/1', true]);
    assert.match(row.errorMessage ?? '', /wordcount_for_the_list_test/);
    assert.equal(typeof row.durationMs, 'number');
    assert.ok(!attention.runs.some((r) => ok.includes(r.runId)));
    assert.deepEqual((await call(routes.listRuns, { query: { q: 'WORDCOUNT_FOR_THE_LIST' } })).runs.map((r) => r.runId), [failing]);
    assert.deepEqual((await call(routes.listRuns, { query: { failed: '__post__/1', skill: 'list_breaker' } })).runs.map((r) => r.runId), [failing]);
    assert.deepEqual((await call(routes.listRuns, { query: { q: failing.slice(4, 14) } })).runs.map((r) => r.runId), [failing]);
    const succeeded = await call(routes.listRuns, { query: { skill: 'summarize', outcome: ['succeeded'], status: ['completed'] } });
    assert.deepEqual(new Set(succeeded.runs.map((r) => r.runId)), new Set(ok));
  });

  it('pages by keyset, newest first: each page goes on where the last stopped, and the last says so', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await call(routes.listRuns, { query: { skill: 'summarize', limit: 2, cursor } });
      seen.push(...page.runs.map((r) => r.runId));
      if (!page.next) break;
      cursor = page.next;
    }
    assert.deepEqual(seen, [...ok].reverse());
  });

  it('the aggregate: counts by status over time, p50/p95 duration, failure points, for the filtered runs', async () => {
    const all = await call(routes.runStats, { query: { buckets: 10 } });
    assert.equal(all.total, 4);
    assert.deepEqual(all.byStatus, { queued: 0, running: 0, completed: 3, failed: 0, aborted: 1 });
    assert.equal(all.needsAttention, 1);
    assert.equal(all.buckets.reduce((n, b) => n + b.completed + b.aborted, 0), 4);
    assert.ok(all.buckets.length <= 10 && all.buckets.length >= 1);
    assert.equal(all.duration.count, 4);
    assert.ok(all.duration.p50! > 0 && all.duration.p95! >= all.duration.p50!);
    assert.deepEqual(all.failures, [{ at: '__post__/1', count: 1 }]);
    const one = await call(routes.runStats, { query: { skill: 'list_breaker' } });
    assert.deepEqual([one.total, one.byStatus.aborted], [1, 1]);
  });

  it('a query it cannot take is a 400 that names the parameter', async () => {
    for (const [query, says] of [
      ['limit=0', /\?limit="0": must be a whole number from 1 to 500/],
      ['outcome=meh', /\?outcome="meh"/],
      ['cursor=nope', /not a cursor this API gave/],
      ['attention=maybe', /\?attention="maybe"/],
      ['from=yesterday', /\?from="yesterday"/],
    ] as const) {
      const r = await fetch(`${app.url}/api/runs?${query}`);
      const body = (await r.json()) as { error: { code: string; message: string } };
      assert.equal(r.status, 400, query);
      assert.equal(body.error.code, 'usage');
      assert.match(body.error.message, says);
    }
  });
});

describe('a run’s event stream', () => {
  it('streams a run as it is recorded, each event with its seq as id, then `end`; Last-Event-ID picks up after it', async () => {
    const { runId } = await call(routes.startRun, { body: { skill: 'summarize', input: summarizeInput } });
    const live = await readSse(`${app.url}/api/runs/${runId}/stream`, { until: (e) => e.event === 'end' });
    assert.equal(live.status, 200);
    assert.match(live.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(live.headers.get('cache-control') ?? '', /no-transform/);
    const messages = live.events.filter((e) => e.event === 'message');
    const seqs = messages.map((e) => (e.data as { seq: number }).seq);
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'every event once, in order');
    assert.deepEqual(messages.map((e) => e.id), seqs.map(String));
    assert.equal((messages.at(-1)!.data as { type: string }).type, 'run_completed');
    assert.deepEqual(live.events.at(-1), { ...live.events.at(-1)!, event: 'end', data: { runId, status: 'completed' } });
    // a reconnect with the last id it had: only what came after
    const resumed = await readSse(`${app.url}/api/runs/${runId}/stream`, { headers: { 'last-event-id': '5' }, until: (e) => e.event === 'end' });
    assert.deepEqual(resumed.events.filter((e) => e.event === 'message').map((e) => (e.data as { seq: number }).seq), seqs.slice(5));
    // past the end of an ended run: just `end`
    const done = await readSse(`${app.url}/api/runs/${runId}/stream?after=${seqs.length}`, { until: (e) => e.event === 'end' });
    assert.deepEqual(done.events.map((e) => e.event), ['end']);
  });

  it('a missing run is a 404 and a bad Last-Event-ID a 400, before anything is streamed', async () => {
    const missing = await readSse(`${app.url}/api/runs/run_nope/stream`);
    assert.equal(missing.status, 404);
    assert.equal((missing.body as { error: { code: string } }).error.code, 'run_not_found');
    const { runs } = await call(routes.listRuns, { query: { limit: 1 } });
    const bad = await readSse(`${app.url}/api/runs/${runs[0].runId}/stream`, { headers: { 'last-event-id': 'abc' } });
    assert.equal(bad.status, 400);
    assert.match((bad.body as { error: { message: string } }).error.message, /Last-Event-ID/);
    // digits past the largest seq there can be: a 400 too, not a stream cut off by the database's refusal
    const past = await readSse(`${app.url}/api/runs/${runs[0].runId}/stream`, { headers: { 'last-event-id': '9999999999' } });
    assert.equal(past.status, 400, JSON.stringify(past.body ?? past.events));
    assert.match((past.body as { error: { message: string } }).error.message, /Last-Event-ID: "9999999999" is past the largest seq \(2147483647\)/);
  });

  it('follows a run that another process drives (its cursor poll), through to its end', async () => {
    const { runId } = await interruptedRun(where());
    const view = await call(routes.getRun, { params: { id: runId } });
    const before = view.eventCount;
    const streamed = readSse(`${app.url}/api/runs/${runId}/stream`, { until: (e) => e.event === 'end', timeoutMs: 90_000 });
    await new Promise((r) => setTimeout(r, 1500)); // the stream has sent what was recorded and waits
    const resumedAt = Date.now();
    const elsewhere = await resumeElsewhere(runId, where());
    assert.equal(elsewhere.code, 0, elsewhere.err);
    const { events } = await streamed;
    const types = events.filter((e) => e.event === 'message').map((e) => (e.data as { type: string }).type);
    const seqs = events.filter((e) => e.event === 'message').map((e) => (e.data as { seq: number }).seq);
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1));
    assert.ok(types.includes('run_resumed'));
    // what was recorded before arrived before the resume began: sent as it is read, not held back to the end
    const recorded = events.filter((e) => e.event === 'message' && (e.data as { seq: number }).seq <= before);
    assert.ok(before >= 5, `the interrupted run had recorded ${before} events`);
    assert.equal(recorded.length, before);
    // the run's last progress, as its page says how long it has been quiet: when its last event was recorded
    assert.equal(view.lastEventAt, (recorded.at(-1)!.data as { at: number }).at);
    assert.ok(recorded.every((e) => e.at < resumedAt), 'streamed, not buffered');
    assert.equal(types.at(-1), 'run_completed');
    assert.deepEqual(events.at(-1)?.data, { runId, status: 'completed' });
  });
});

describe('resume and abort', () => {
  it('resumes an interrupted run: it goes on from its last commit to its end; resuming an ended run is a 409', async () => {
    const { runId } = await interruptedRun(where());
    const before = await call(routes.getRun, { params: { id: runId } });
    assert.equal(before.status, 'running');
    const r = await call(routes.resumeRun, { params: { id: runId } });
    assert.equal(r.runId, runId);
    assert.ok(['running', 'completed'].includes(r.status), r.status);
    const done = await waitForEnd(runId);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.equal((done.output as { title: string }).title, 'probe');
    const again = await refused(routes.resumeRun, { params: { id: runId } });
    assert.deepEqual([again.status, again.code], [409, 'run_not_resumable']);
    assert.equal((await refused(routes.resumeRun, { params: { id: 'run_nope' } })).status, 404);
  });

  it('a skill changed under an interrupted run is refused before anything new runs, and the run can still be aborted', async () => {
    const { runId, bundle } = await interruptedRun(where());
    const skillMd = path.join(bundle, 'skill.md');
    // postprocessor step 0 was recorded with `into: e0`
    writeFileSync(skillMd, readFileSync(skillMd, 'utf8').replace('function: effect, into: e0 }', 'function: effect, into: e0_renamed }'));
    const events = (await call(routes.getRun, { params: { id: runId } })).eventCount;
    const e = await refused(routes.resumeRun, { params: { id: runId } });
    assert.deepEqual([e.status, e.code], [409, 'determinism_violation']);
    assert.match(e.message, /__post__\/0 no longer matches the skill/);
    const after = await call(routes.getRun, { params: { id: runId } });
    assert.equal(after.status, 'running', 'left as it was: resumable once the skill is put back, or abortable');
    assert.ok(after.eventCount <= events + 1, 'nothing ran: at most its run_resumed was recorded');
    const aborted = await call(routes.abortRun, { params: { id: runId }, body: { reason: 'the skill changed' } });
    assert.equal(aborted.status, 'aborted');
  });

  it('aborts an interrupted run on request: recorded as the user’s (via the app), so it needs no attention; aborting again is a 409', async () => {
    const { runId } = await interruptedRun(where());
    const r = await call(routes.abortRun, { params: { id: runId }, body: { reason: 'not needed any more' } });
    assert.equal(r.status, 'aborted');
    assert.deepEqual(r.abortedChildren, []);
    assert.equal(r.error?.requestedBy, 'user');
    assert.equal(r.error?.via, 'app');
    assert.match(String(r.error?.message), /aborted on request: not needed any more/);
    const run = await call(routes.getRun, { params: { id: runId } });
    assert.equal(run.status, 'aborted');
    const row = (await call(routes.listRuns, { query: { q: runId } })).runs[0];
    assert.deepEqual([row.runId, row.status, row.needsAttention], [runId, 'aborted', false]);
    const again = await refused(routes.abortRun, { params: { id: runId }, body: undefined });
    assert.deepEqual([again.status, again.code], [409, 'run_finished']);
    // a body it cannot take is a located 400; no body at all is fine
    const res = await fetch(`${app.url}/api/runs/${runId}/abort`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 5 }) });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /reason/);
    const noBody = await fetch(`${app.url}/api/runs/run_nope/abort`, { method: 'POST' });
    assert.equal(noBody.status, 404);
  });
});
