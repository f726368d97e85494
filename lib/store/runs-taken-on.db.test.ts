// A failed run that a fork took on and completed kept saying "needs attention" in the runs list, its
// filter, the chart's count and the studio's recent runs (one list, one API). It no longer needs
// attention once a fork of it completed (its row names that fork, `takenOnBy`); its status stays
// `failed`. A fork that failed too, or a replay that completed (it checks, it fixes nothing), does
// not take it on. Both backends.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../kernel/json';
import type { RunRecord, RunStatus } from '../kernel/ports';
import type { OpenedStore } from './open-store';
import { bothBackends } from './testing/both-backends';
import type { RunSearch } from './run-index';
import { ev, makeRun, T0 } from './testing/fixtures';
import { getRun } from '../server/runs/run-summary';

const MIN = 60_000;

async function recordRun(store: OpenedStore, skill: string, at: number, status: RunStatus, over: Partial<RunRecord> = {}): Promise<RunRecord> {
  const run = makeRun({ skillName: skill, createdAt: at, updatedAt: at, ...over });
  await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
  const failed = status === 'failed';
  const report: JsonObject = { outcome: failed ? 'failed' : 'succeeded', failed_stage: null };
  const error: JsonObject | null = failed ? { code: 'workflow_aborted', message: 'postprocessor step 0 (python) failed: boom', phase: '__post__', step: 0, stepType: 'python' } : null;
  await store.commit(run.id, { events: [ev(run.id, 2, `run_${status}`)], run: { status, report, error, updatedAt: at + 1000 } });
  return run;
}

for (const [name, open] of bothBackends()) {
  describe(`a failed run taken on by a fork on ${name}`, () => {
    let store: OpenedStore;
    const skill = `skill_${randomUUID().slice(0, 8)}`;
    const runs: Record<string, RunRecord> = {};
    before(async () => {
      store = await open();
      runs.fixed = await recordRun(store, skill, T0, 'failed');
      runs.fork1 = await recordRun(store, skill, T0 + MIN, 'failed', { kind: 'fork', parentRunId: runs.fixed.id, forkPoint: '__post__/0' });
      runs.fork2 = await recordRun(store, skill, T0 + 2 * MIN, 'completed', { kind: 'fork', parentRunId: runs.fixed.id, forkPoint: '__post__/0' });
      runs.stuck = await recordRun(store, skill, T0 + 3 * MIN, 'failed');
      runs.stuckFork = await recordRun(store, skill, T0 + 4 * MIN, 'failed', { kind: 'fork', parentRunId: runs.stuck.id, forkPoint: '__post__/0' });
      runs.replayed = await recordRun(store, skill, T0 + 5 * MIN, 'failed');
      runs.replay = await recordRun(store, skill, T0 + 6 * MIN, 'completed', { kind: 'replay', parentRunId: runs.replayed.id });
      // a chain: A failed, its fork B failed again, B's fork C completed (C took on B, and A through it)
      runs.chainA = await recordRun(store, skill, T0 + 7 * MIN, 'failed');
      runs.chainB = await recordRun(store, skill, T0 + 8 * MIN, 'failed', { kind: 'fork', parentRunId: runs.chainA.id, forkPoint: '__post__/0' });
      runs.chainC = await recordRun(store, skill, T0 + 9 * MIN, 'completed', { kind: 'fork', parentRunId: runs.chainB.id, forkPoint: '__post__/0' });
      // a chain not through yet: A failed, its fork B failed again
      runs.openA = await recordRun(store, skill, T0 + 7 * MIN + 1000, 'failed');
      runs.openB = await recordRun(store, skill, T0 + 8 * MIN + 1000, 'failed', { kind: 'fork', parentRunId: runs.openA.id, forkPoint: '__post__/0' });
    });
    after(() => store.close());

    const within: RunSearch = { skill, from: T0, to: T0 + 10 * MIN };
    const page = async (search: RunSearch = {}) => (await store.runIndex.page({ ...within, ...search }, { limit: 100 })).rows;

    it('its row no longer needs attention and names the fork that completed; its status stays failed', async () => {
      const rows = new Map((await page()).map((r) => [r.id, r]));
      const fixed = rows.get(runs.fixed.id);
      assert.deepEqual([fixed?.status, fixed?.needsAttention, fixed?.takenOnBy, fixed?.failedAt], ['failed', false, runs.fork2.id, '__post__/0']);
      // a failed fork of it does not take it on, nor a replay that completed; the failed forks need attention themselves
      for (const k of ['stuck', 'replayed', 'fork1', 'stuckFork']) assert.deepEqual([k, rows.get(runs[k].id)?.needsAttention, rows.get(runs[k].id)?.takenOnBy], [k, true, null]);
      for (const k of ['chainA', 'chainB']) assert.deepEqual([k, rows.get(runs[k].id)?.needsAttention, rows.get(runs[k].id)?.takenOnBy], [k, false, runs.chainC.id]);
      for (const k of ['openA', 'openB']) assert.deepEqual([k, rows.get(runs[k].id)?.needsAttention, rows.get(runs[k].id)?.takenOnBy], [k, true, null]);
      for (const k of ['fork2', 'replay', 'chainC']) assert.deepEqual([k, rows.get(runs[k].id)?.needsAttention, rows.get(runs[k].id)?.takenOnBy], [k, false, null]);
    });

    it('the attention filter and the count leave it out; the filter for the others lists it', async () => {
      const ids = async (search: RunSearch) => (await page(search)).map((r) => r.id).sort();
      const of = (...ks: string[]) => ks.map((k) => runs[k].id).sort();
      assert.deepEqual(await ids({ needsAttention: true }), of('fork1', 'stuck', 'stuckFork', 'replayed', 'openA', 'openB'));
      assert.deepEqual(await ids({ needsAttention: false }), of('fixed', 'fork2', 'replay', 'chainA', 'chainB', 'chainC'));
      assert.equal((await store.runIndex.stats(within, { buckets: 10 })).needsAttention, 6);
      assert.equal((await store.runIndex.stats({ ...within, needsAttention: true }, { buckets: 10 })).needsAttention, 6);
      assert.equal((await store.runIndex.stats({ ...within, needsAttention: false }, { buckets: 10 })).needsAttention, 0);
      assert.equal((await store.runIndex.stats({ ...within, status: ['failed'] }, { buckets: 10 })).needsAttention, 6);
    });

    it('the run page says the same (GET /api/runs/<id> takenOnBy): the fork down the chain that completed', async () => {
      const takenOnBy = async (k: string) => (await getRun({ store, skills: store.skills }, runs[k].id)).takenOnBy;
      assert.deepEqual(
        await Promise.all(['chainA', 'chainB', 'fixed', 'openA', 'stuck', 'replayed', 'chainC'].map(takenOnBy)),
        [runs.chainC.id, runs.chainC.id, runs.fork2.id, null, null, null, null],
      );
    });
  });
}
