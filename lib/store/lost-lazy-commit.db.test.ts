// A lazy group of pure events (256 of them, acknowledged before it reached the disk) lost to a
// crash of the database server: the run's next commit continues a log that no longer holds them,
// and the database refuses it (SC003, the gap-free rule). The run must stop as a store failure,
// not a failure of the run — left `running`, with its snapshot, so that whoever drives runs again
// once the store is back (a worker: lib/queue/run-worker.ts treats `store_write_failed` as
// transient) resumes it — and that resume recomputes the lost pure steps and completes, its log
// gap-free. On the real stores: Postgres (commit lanes) and the embedded PGlite.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EVENT } from '../kernel/events';
import { GROUP_COMMIT_MAX_EVENTS } from '../kernel/journal';
import type { CommitUnit } from '../kernel/ports';
import type { StepSpec } from '../kernel/plan';
import { resumeRun, startRun } from '../kernel/runner';
import { deps, plan, playModel, post } from '../kernel/testing';
import { openStore, type OpenedStore } from './open-store';
import { createTestDatabase, tempDir, type TestDatabase } from './testing/pg-test-db';

const dataDir = tempDir();
let database: TestDatabase | null = null;
const stores: OpenedStore[] = [];

after(async () => {
  for (const s of stores) await s.close();
  await database?.drop();
  dataDir.remove();
});

const open = {
  PGlite: () => openStore({ dataDir: dataDir.dir }),
  Postgres: async () => {
    database = await createTestDatabase();
    return openStore({ databaseUrl: database.url });
  },
};

/** more pure steps than one lazy group holds: the first group is flushed lazily, the rest ride with the end */
const STEPS = GROUP_COMMIT_MAX_EVENTS + 20;
const validate = (index: number): StepSpec => ({ onError: 'fail', emptyValue: null, line: 1, index, type: 'validate', schema: { type: 'object' } }) as StepSpec;
const skill = () => plan({ postprocessor: post(Array.from({ length: STEPS }, (_, i) => validate(i))) });

/** The database "crashes" right after acknowledging lazy commits: while `losing`, they are acknowledged and never written. */
function losingLazyCommits(store: OpenedStore): { lost: CommitUnit[]; stop: () => void } {
  const commit = store.commit.bind(store);
  const lost: CommitUnit[] = [];
  let losing = true;
  store.commit = async (runId, unit) => {
    if (unit.lazy && losing) {
      lost.push(unit);
      return { kind: 'committed' };
    }
    return commit(runId, unit);
  };
  return { lost, stop: () => (losing = false) };
}

for (const [name, openIt] of Object.entries(open)) {
  describe(`a lazy group lost to a database crash, on ${name}`, () => {
    it('stops the run as a store failure, resumable; a resume recomputes the lost steps and completes gap-free', async () => {
      const store = await openIt();
      stores.push(store);
      const loss = losingLazyCommits(store);
      const d = deps(playModel([{ finish: { title: 'x' } as never }]), { store });

      const err = await startRun(skill(), d, { input: {}, skillText: '', runId: `run_gap_${name}` }).then(
        () => assert.fail('the run cannot complete over a gap in its log'),
        (e: { code?: string; message?: string }) => e,
      );
      assert.equal(loss.lost.length, 1, 'one lazy group was acknowledged and lost');
      assert.equal(loss.lost[0].events.length, GROUP_COMMIT_MAX_EVENTS);
      // a store failure, not the run's: nothing of the unit was written, and the run is left to a resume
      assert.equal(err.code, 'store_write_failed', String(err.message));
      assert.match(String(err.message), new RegExp(`events ${loss.lost[0].events[0].seq}–${loss.lost[0].events.at(-1)!.seq} .* were lost, the database server must have restarted`), 'the message says what happened');
      const runId = `run_gap_${name}`;
      const left = (await store.getRun(runId))!;
      assert.equal(left.status, 'running');
      assert.equal((await store.readSnapshot(runId))?.currentPhase, '__post__', 'the finish artifact was durable: a resume starts at the postprocessor');
      const before = await store.readEvents(runId);
      assert.equal(before.at(-1)!.type, EVENT.artifactPersisted, 'nothing after the lost group was written');

      // what a worker does on store_write_failed: drive the run again
      loss.stop();
      const out = await resumeRun(runId, () => skill(), d);
      assert.equal(out.status, 'completed', JSON.stringify(out.error));
      const events = await store.readEvents(runId);
      assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), 'the log is gap-free');
      const steps = events.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor');
      assert.equal(steps.length, STEPS, 'every postprocessor step is recorded once');
      assert.equal(new Set(steps.map((e) => e.data.position)).size, STEPS);
      assert.equal(events.at(-1)!.type, EVENT.runCompleted);
      assert.equal((await store.getRun(runId))!.status, 'completed');
      assert.equal(await store.readSnapshot(runId), null);
    });
  });
}
