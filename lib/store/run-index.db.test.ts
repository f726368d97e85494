// The runs list's SQL on both backends (an embedded PGlite and a real Postgres): the generated
// columns say what each kind of end means, every filter and the search narrow as they say,
// keyset pages walk the whole list once (and a run started meanwhile does not shift them), and
// the aggregate counts, buckets and ranks durations and failure points.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../kernel/json';
import type { RunRecord, RunStatus } from '../kernel/ports';
import type { OpenedStore } from './open-store';
import { bothBackends } from './testing/both-backends';
import { bucketWidth, type RunCursor, type RunSearch } from './run-index';
import { ev, makeRun, T0 } from './testing/fixtures';

const MIN = 60_000;

type Ending = { status: RunStatus; report?: JsonObject | null; error?: JsonObject | null; tookMs?: number };

/** a run of `skill` created at `at`, ended as `end` says (its report and error written by the end's commit, as the kernel writes them) */
async function recordRun(store: OpenedStore, skill: string, at: number, end: Ending, over: Partial<RunRecord> = {}): Promise<RunRecord> {
  const run = makeRun({ skillName: skill, createdAt: at, updatedAt: at, ...over });
  await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
  if (end.status !== 'running') {
    await store.commit(run.id, {
      events: [ev(run.id, 2, `run_${end.status}`)],
      run: { status: end.status, report: end.report ?? null, error: end.error ?? null, updatedAt: at + (end.tookMs ?? 1000) },
    });
  }
  return run;
}

const report = (outcome: string, extra: JsonObject = {}): JsonObject => ({ outcome, block_reason: null, failed_stage: null, changed_paths: [], step_counts: {}, ...extra });

const backends = bothBackends();

for (const [name, open] of backends) {
  describe(`the runs list on ${name}`, () => {
    let store: OpenedStore;
    const skill = `skill_${randomUUID().slice(0, 8)}`;
    const other = `other_${randomUUID().slice(0, 8)}`;
    const runs: Record<string, RunRecord> = {};
    before(async () => {
      store = await open();
      runs.ok = await recordRun(store, skill, T0, { status: 'completed', report: report('succeeded'), tookMs: 1000 });
      runs.blocked = await recordRun(store, skill, T0 + MIN, { status: 'completed', report: report('blocked', { block_reason: 'stage path_guard denied a tool call' }), tookMs: 2000 });
      runs.stage = await recordRun(store, skill, T0 + 2 * MIN, {
        status: 'failed',
        report: report('failed', { failed_stage: { phase: 'draft', rung: 'post-model', stage: 'check', capability: 'lint', round: 1, error: 'boom' } }),
        error: { code: 'stage_crashed', message: "Cannot read properties of null (reading 'x')", stage: 'check', capability: 'lint' },
        tookMs: 3000,
      });
      runs.step = await recordRun(store, skill, T0 + 3 * MIN, {
        status: 'aborted',
        report: report('blocked'),
        error: {
          code: 'workflow_aborted',
          message: 'postprocessor step 2 (validate, skill.md line 9) failed: KeyError in /data/bundles/ab12/sanitize.py (at /data/bundles/ab12/sanitize.py:11)',
          phase: '__post__',
          step: 2,
          stepType: 'validate',
        },
        tookMs: 4000,
      }, { bundleDir: '/data/bundles/ab12' });
      runs.pre = await recordRun(store, other, T0 + 4 * MIN, {
        status: 'aborted',
        report: report('blocked'),
        error: { code: 'workflow_aborted', message: 'phase draft preprocessor step 0 (python) failed', phase: 'draft', step: 0, stepType: 'python' },
        tookMs: 5000,
      });
      runs.user = await recordRun(store, other, T0 + 5 * MIN, {
        status: 'aborted',
        report: report('blocked'),
        error: { code: 'workflow_aborted', message: 'aborted on request: not needed', requestedBy: 'user', via: 'app' },
        tookMs: 6000,
      });
      runs.running = await recordRun(store, other, T0 + 6 * MIN, { status: 'running' }, { input: { topic: '100% of_the "needle" here' } });
    });
    after(async () => {
      await store.close();
    });

    const ids = async (search: RunSearch, limit = 100) => (await store.runIndex.page({ ...search, from: T0, to: T0 + 7 * MIN }, { limit })).rows.map((r) => r.id);
    const named = (...keys: string[]) => keys.map((k) => runs[k].id);

    it('a row says what the run is and how it ended: outcome, failure point, attention, duration, error, version, input', async () => {
      const { rows } = await store.runIndex.page({ from: T0, to: T0 + 7 * MIN }, { limit: 100 });
      const by = new Map(rows.map((r) => [r.id, r]));
      const row = (k: string) => by.get(runs[k].id)!;
      assert.deepEqual(
        Object.keys(runs).map((k) => [k, row(k).status, row(k).outcome, row(k).failedAt, row(k).needsAttention, row(k).durationMs]),
        [
          ['ok', 'completed', 'succeeded', null, false, 1000],
          ['blocked', 'completed', 'blocked', null, true, 2000],
          ['stage', 'failed', 'failed', 'lint/check', true, 3000],
          ['step', 'aborted', 'blocked', '__post__/2', true, 4000],
          ['pre', 'aborted', 'blocked', 'draft/pre/0', true, 5000],
          // an abort a user asked for does not need attention
          ['user', 'aborted', 'blocked', null, false, 6000],
          ['running', 'running', null, null, false, null],
        ],
      );
      assert.match(row('stage').errorMessage ?? '', /Cannot read properties of null/);
      // the bundle copy's address in the data dir is cut, as the report cuts it: the row names the file
      assert.equal(row('step').errorMessage, 'postprocessor step 2 (validate, skill.md line 9) failed: KeyError in sanitize.py (at sanitize.py:11)');
      assert.equal(row('ok').skillName, skill);
      assert.equal(row('ok').versionHash, null);
      assert.equal(row('running').inputPreview, JSON.stringify(runs.running.input));
    });

    it('a report that names its failed step wins over what the error says', async () => {
      const r = await recordRun(store, other, T0 + 10 * MIN, {
        status: 'aborted',
        report: report('blocked', { failed_step: { position: 'draft#2/pre/1', type: 'python' } }),
        error: { code: 'workflow_aborted', message: 'x', phase: 'draft', step: 1, stepType: 'python' },
      });
      const { rows } = await store.runIndex.page({ failedAt: 'draft#2/pre/1' }, { limit: 10 });
      assert.deepEqual(rows.map((x) => x.id), [r.id]);
    });

    it('a run stopped in its phase with no stage or step to blame is counted where it stopped, not as no failure', async () => {
      const at = T0 + 40 * MIN;
      const contract = await recordRun(store, other, at, {
        status: 'failed',
        report: report('failed'),
        error: { code: 'output_invalid', message: 'phase draft: the finish artifact does not satisfy the output schema after one retry', phase: 'draft' },
      });
      // an abort someone asked for names the phase it stopped in too, but nothing of it failed
      const asked = await recordRun(store, other, at + 1, {
        status: 'aborted',
        report: report('blocked', { aborted_by: { by: 'request', reason: 'stale', requestedBy: 'cli (user dana)' } }),
        error: { code: 'workflow_aborted', message: 'aborted on request: stale', phase: 'draft' },
      });
      // a model script with no turn left: its error names the position
      const exhausted = await recordRun(store, other, at + 2, {
        status: 'failed',
        report: report('failed'),
        error: { code: 'model_script_exhausted', message: 'The model script model.yaml has no turn for phase draft round 3', phase: 'draft', position: 'draft/r3/model' },
      });
      const { rows } = await store.runIndex.page({ from: at, to: at + MIN }, { limit: 10 });
      assert.deepEqual(rows.map((r) => [r.id, r.failedAt]), [[exhausted.id, 'draft/r3/model'], [asked.id, null], [contract.id, 'draft']]);
      assert.deepEqual((await store.runIndex.page({ failedAt: 'draft', from: at, to: at + MIN }, { limit: 10 })).rows.map((r) => r.id), [contract.id]);
      const s = await store.runIndex.stats({ from: at, to: at + MIN }, { buckets: 2 });
      assert.deepEqual(s.failures, [{ at: 'draft', count: 1 }, { at: 'draft/r3/model', count: 1 }]);
    });

    it('newest first; each filter narrows as it says', async () => {
      assert.deepEqual(await ids({}), named('running', 'user', 'pre', 'step', 'stage', 'blocked', 'ok'));
      assert.deepEqual(await ids({ skill }), named('step', 'stage', 'blocked', 'ok'));
      assert.deepEqual(await ids({ status: ['failed', 'running'] }), named('running', 'stage'));
      assert.deepEqual(await ids({ outcome: ['blocked'] }), named('user', 'pre', 'step', 'blocked'));
      assert.deepEqual(await ids({ outcome: ['blocked'], skill: other }), named('user', 'pre'));
      assert.deepEqual(await ids({ failedAt: 'lint/check' }), named('stage'));
      assert.deepEqual(await ids({ failedAt: '__post__/2' }), named('step'));
      assert.deepEqual(await ids({ needsAttention: true }), named('pre', 'step', 'stage', 'blocked'));
      assert.deepEqual(await ids({ needsAttention: false }), named('running', 'user', 'ok'));
      // the time range: from inclusive, to exclusive
      assert.deepEqual((await store.runIndex.page({ from: T0 + MIN, to: T0 + 3 * MIN }, { limit: 10 })).rows.map((r) => r.id), named('stage', 'blocked'));
    });

    it('the search finds run ids, inputs and error messages, case-insensitively; % and _ are literal', async () => {
      assert.deepEqual(await ids({ text: runs.step.id.slice(4, 16) }), named('step'));
      assert.deepEqual(await ids({ text: 'NEEDLE' }), named('running'));
      assert.deepEqual(await ids({ text: 'keyerror' }), named('step'));
      assert.deepEqual(await ids({ text: 'cannot read properties' }), named('stage'));
      assert.deepEqual(await ids({ text: '100%' }), named('running'));
      assert.deepEqual(await ids({ text: 'of_the' }), named('running'));
      assert.deepEqual(await ids({ text: 'o_t' }), [], '_ matches only an underscore');
      assert.deepEqual(await ids({ text: '%' }), named('running'), '% matches only a percent sign');
      assert.deepEqual(await ids({ text: 'no such thing anywhere' }), []);
    });

    it('keyset pages walk the list once, ties in creation order; a run started meanwhile does not shift them', async () => {
      const tieSkill = `ties_${randomUUID().slice(0, 8)}`;
      const made: string[] = [];
      // 12 runs, 3 per millisecond: the tie-break is creation order
      for (let i = 0; i < 12; i++) made.push((await recordRun(store, tieSkill, T0 + 20 * MIN + Math.floor(i / 3), { status: 'completed', report: report('succeeded') })).id);
      const expected = [9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1, 2].map((i) => made[i]);
      const seen: string[] = [];
      let after: RunCursor | undefined;
      for (let pages = 0; ; pages++) {
        const p = await store.runIndex.page({ skill: tieSkill }, { after, limit: 5 });
        seen.push(...p.rows.map((r) => r.id));
        if (pages === 0) await recordRun(store, tieSkill, T0 + 30 * MIN, { status: 'running' }); // newer than all: lands before page 1
        if (!p.next) break;
        after = p.next;
      }
      assert.deepEqual(seen, expected);
      const all = (await store.runIndex.page({ skill: tieSkill }, { limit: 100 })).rows;
      assert.equal(all.length, 13);
      assert.equal((await store.runIndex.page({ skill: tieSkill }, { limit: 13 })).next, null, 'a last page says so');
    });

    it('the aggregate: counts by status over buckets, p50/p95 of the ended, attention, failure points', async () => {
      const s = await store.runIndex.stats({ from: T0, to: T0 + 7 * MIN }, { buckets: 7 });
      assert.equal(s.total, 7);
      assert.equal(s.needsAttention, 4);
      assert.deepEqual(s.byStatus, { queued: 0, running: 1, completed: 2, failed: 1, aborted: 3 });
      assert.equal(s.bucketMs, MIN);
      assert.deepEqual(
        s.buckets.map((b) => [b.start - T0, b.counts]),
        [
          [0, { queued: 0, running: 0, completed: 1, failed: 0, aborted: 0 }],
          [MIN, { queued: 0, running: 0, completed: 1, failed: 0, aborted: 0 }],
          [2 * MIN, { queued: 0, running: 0, completed: 0, failed: 1, aborted: 0 }],
          [3 * MIN, { queued: 0, running: 0, completed: 0, failed: 0, aborted: 1 }],
          [4 * MIN, { queued: 0, running: 0, completed: 0, failed: 0, aborted: 1 }],
          [5 * MIN, { queued: 0, running: 0, completed: 0, failed: 0, aborted: 1 }],
          [6 * MIN, { queued: 0, running: 1, completed: 0, failed: 0, aborted: 0 }],
        ],
      );
      // durations 1..6 s of the six that ended: p50 3.5 s, p95 5.75 s (linear interpolation)
      assert.deepEqual(s.duration, { count: 6, p50: 3500, p95: 5750 });
      assert.deepEqual(s.failures, [
        { at: '__post__/2', count: 1 },
        { at: 'draft/pre/0', count: 1 },
        { at: 'lint/check', count: 1 },
      ]);
      // filtered like the list
      const onlySkill = await store.runIndex.stats({ skill, from: T0, to: T0 + 7 * MIN }, { buckets: 7 });
      assert.equal(onlySkill.total, 4);
      assert.deepEqual(onlySkill.duration, { count: 4, p50: 2500, p95: 3850 });
      // one failure point picked: the others are still offered (they come from every other filter)
      const picked = await store.runIndex.stats({ from: T0, to: T0 + 7 * MIN, failedAt: 'lint/check' }, { buckets: 7 });
      assert.equal(picked.total, 1);
      assert.deepEqual(picked.failures, s.failures);
      const pickedNone = await store.runIndex.stats({ from: T0, to: T0 + 7 * MIN, failedAt: 'no/such/point' }, { buckets: 7 });
      assert.deepEqual([pickedNone.total, pickedNone.failures.length], [0, 3]);
      const none = await store.runIndex.stats({ skill: 'no_such_skill' }, { buckets: 10 });
      assert.deepEqual([none.total, none.buckets, none.duration, none.failures], [0, [], { count: 0, p50: null, p95: null }, []]);
      // the failure points the filter leaves are none, yet runs did fail: the filter hides them
      assert.deepEqual([s.anyFailed, none.anyFailed], [true, true]);
    });
  });
}

describe('bucket widths', () => {
  it('the smallest readable width that covers the span in the buckets asked for', () => {
    assert.equal(bucketWidth(7 * MIN, 7), MIN);
    assert.equal(bucketWidth(7 * MIN + 1, 7), 5 * MIN);
    assert.equal(bucketWidth(0, 10), 1000);
    assert.equal(bucketWidth(24 * 3600_000, 24), 3600_000);
    assert.equal(bucketWidth(360 * 86400_000, 12), 30 * 86400_000);
    // past the longest width: whole multiples of it
    assert.equal(bucketWidth(365 * 86400_000, 12), 60 * 86400_000);
    assert.equal(bucketWidth(10 * 365 * 86400_000, 12), 330 * 86400_000);
  });
});
