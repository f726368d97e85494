// Every route of the table, called through the browser's own client (callRoute: its URL, method and
// body from the entry) against the built app, and every answer parsed with the entry's view — the
// client checks it (answers are checked outside production builds), and so does this test, once
// more, by hand. A route added to the table without a call here fails the coverage check.
// With STAGECRAFT_TOKEN set, so the session routes answer too (every call carries the token).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { z } from 'zod';
import { routes, type RouteName } from '../../api/routes';
import type { RouteAnswer, RouteDef, RouteInput } from '../../api/route-def';
import { callRoute } from '../../client/api';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { startApp, type AppServer } from './testing/app-server';
import { interruptedRun, readSse } from './testing/runs';

const TOKEN = 'contract-test-token-0123456789abcdef';
/** declared ahead of the operation that will serve it */
const NOT_YET_SERVED = new Set<RouteName>([]);

let db: TestDatabase;
let app: AppServer;
before(async () => {
  db = await createTestDatabase();
  app = await startApp({ env: { DATABASE_URL: db.url, STAGECRAFT_TOKEN: TOKEN } });
});
after(async () => {
  await app?.stop();
  await db?.drop();
});

const called = new Set<string>();
const auth = { authorization: `Bearer ${TOKEN}` };

async function call<R extends RouteDef>(name: RouteName, route: R, input: RouteInput<R>): Promise<RouteAnswer<R>> {
  called.add(name);
  const answer = await callRoute(route, input, { baseUrl: app.url, headers: auth });
  if (route.answer.kind === 'json') {
    const parsed = route.answer.schema.safeParse(answer);
    assert.ok(parsed.success, `${name}: ${parsed.error?.message}`);
  } else assert.equal(answer, undefined, `${name} answers nothing`);
  return answer;
}

async function waitForEnd(id: string) {
  for (let i = 0; i < 300; i++) {
    const run = await call('getRun', routes.getRun, { params: { id } });
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${id} did not end`);
}

test('every route answers with its view', async () => {
  // skills and versions
  await call('listSkills', routes.listSkills, {});
  await call('createSkill', routes.createSkill, { body: { name: 'contract_x', from: 'summarize' } });
  const skill = await call('getSkill', routes.getSkill, { params: { name: 'contract_x' } });
  const files = skill.version!.files;
  const saved = await call('saveVersion', routes.saveVersion, { params: { name: 'contract_x' }, body: { files: { ...files, 'notes.md': 'a second version' } } });
  const { versions } = await call('listVersions', routes.listVersions, { params: { name: 'contract_x' } });
  assert.equal(versions[0].hash, saved.version.hash);
  const first = versions[1].hash;
  await call('getVersion', routes.getVersion, { params: { name: 'contract_x', hash: first.slice(0, 8) } });
  const restored = await call('restoreVersion', routes.restoreVersion, { params: { name: 'contract_x', hash: first.slice(0, 10) } });
  assert.deepEqual([restored.version.hash, restored.version.origin], [first, 'restore']);
  assert.deepEqual(restored.version.files, files);
  await call('validate', routes.validate, { body: { files, skill: 'contract_x' } });
  await call('renameSkill', routes.renameSkill, { params: { name: 'contract_x' }, body: { name: 'contract_y' } });

  // runs
  const { runId } = await call('startRun', routes.startRun, { body: { skill: 'contract_y', input: { path: 'report.txt' } } });
  const stream = await readSse(`${app.url}/api/runs/${runId}/stream`, { headers: auth, until: (e) => e.event === 'end' });
  called.add('streamRun');
  assert.ok(stream.events.length > 2);
  const events = routes.streamRun.answer.events as Record<string, z.ZodType>;
  for (const e of stream.events) assert.ok(events[e.event]?.safeParse(e.data).success, `streamRun "${e.event}": ${JSON.stringify(e.data).slice(0, 200)}`);
  await waitForEnd(runId);
  await call('listRuns', routes.listRuns, { query: { skill: 'contract_y', limit: 5 } });
  await call('runStats', routes.runStats, { query: { skill: 'contract_y' } });
  await call('listRunEvents', routes.listRunEvents, { params: { id: runId }, query: { after: 2, limit: 3 } });
  const timeline = await call('getRunTimeline', routes.getRunTimeline, { params: { id: runId } });
  const state = await call('getRunState', routes.getRunState, { params: { id: runId }, query: { seq: 1 } });
  assert.equal(state.seq, 1);
  const item = await call('getRunItem', routes.getRunItem, { params: { id: runId, seq: timeline.lastSeq } });
  assert.equal(item.seq, timeline.lastSeq);
  const value = await call('getRunValue', routes.getRunValue, { params: { id: runId }, query: { seq: 1, path: 'event/data' } });
  assert.equal(value.seq, 1);
  const toResume = await interruptedRun({ databaseUrl: db.url, dataDir: app.dataDir });
  await call('resumeRun', routes.resumeRun, { params: { id: toResume.runId } });
  await waitForEnd(toResume.runId);
  const toAbort = await interruptedRun({ databaseUrl: db.url, dataDir: app.dataDir });
  await call('abortRun', routes.abortRun, { params: { id: toAbort.runId }, body: { reason: 'contract' } });

  // replay, fork, compare, regress, export and import
  const replay = await call('replayRun', routes.replayRun, { params: { id: runId }, body: {} });
  assert.equal(replay.verdict, 'identical');
  const point = await call('forkPoint', routes.forkPoint, { params: { id: runId }, query: { at: 'input' } });
  assert.deepEqual(point.value, { path: 'report.txt' });
  const fork = await call('forkRun', routes.forkRun, { params: { id: runId }, body: { at: 'input' } });
  await waitForEnd(fork.runId);
  await call('compareRuns', routes.compareRuns, { query: { a: runId, b: fork.runId } });
  await call('regressSkill', routes.regressSkill, { params: { name: 'contract_y' }, body: {} });
  const exported = await call('exportRun', routes.exportRun, { params: { id: runId } });
  const imported = await call('importRuns', routes.importRuns, { body: JSON.stringify(exported) });
  assert.deepEqual(imported.imported.map((r) => [r.runId, r.status]), [[runId, 'unchanged']]);

  // the session, and deleting
  const health = await call('health', routes.health, {});
  assert.equal(health.store.reachable, true);
  await call('signIn', routes.signIn, { body: { token: TOKEN } });
  await call('signOut', routes.signOut, {});
  await call('deleteSkill', routes.deleteSkill, { params: { name: 'contract_y' } });

  const missing = (Object.keys(routes) as RouteName[]).filter((n) => !called.has(n) && !NOT_YET_SERVED.has(n));
  assert.deepEqual(missing, [], 'every route of the table is called here');
});
