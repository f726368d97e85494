// Asking whether a run exists or has ended reads its status alone (runStatusOf): an event page, a
// stream and a stream resumed past a run's end never read the run's payloads (getRun parses its
// input, output and report: a 16 MB output is a second of the embedded store's thread).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../../kernel/memory-store';
import { RunNotFoundError } from '../../kernel/errors';
import { ev, makeRun, T0 } from '../../store/testing/fixtures';
import { listRunEvents } from './list-run-events';
import { streamRunEvents } from './stream-run-events';
import { runStatusOf } from './run-status';

class CountingStore extends MemoryStore {
  getRuns = 0;
  override async getRun(runId: string) {
    this.getRuns++;
    return super.getRun(runId);
  }
}

async function endedRun(store: MemoryStore): Promise<string> {
  const run = makeRun({ output: null });
  await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
  const output = { rows: ['a', 'b'] };
  await store.commit(run.id, { events: [{ runId: run.id, seq: 2, type: 'run_completed', at: T0 + 2, data: { output } }], run: { status: 'completed', output, updatedAt: T0 + 2 } });
  return run.id;
}

describe("a run's status alone", () => {
  it("an event page, a stream and a stream resumed past the run's end read no run record", async () => {
    const store = new CountingStore();
    const runId = await endedRun(store);
    const page = await listRunEvents({ store }, runId);
    assert.deepEqual(page.events.map((e) => e.type), ['run_started', 'run_completed']);
    const streamed: string[] = [];
    for await (const m of await streamRunEvents({ store }, runId)) streamed.push(m.event);
    assert.deepEqual(streamed, ['message', 'message', 'end']);
    const past: unknown[] = [];
    for await (const m of await streamRunEvents({ store }, runId, { after: 2 })) past.push(m.data);
    assert.deepEqual(past, [{ runId, status: 'completed' }]);
    await assert.rejects(listRunEvents({ store }, 'no-such-run'), RunNotFoundError);
    await assert.rejects(streamRunEvents({ store }, 'no-such-run'), RunNotFoundError);
    assert.equal(store.getRuns, 0);
  });

  it('comes from getRun where a store has no getRunStatus', async () => {
    const store = new CountingStore();
    const runId = await endedRun(store);
    const bare = Object.create(store) as CountingStore;
    Object.defineProperty(bare, 'getRunStatus', { value: undefined });
    assert.equal(await runStatusOf(bare, runId), 'completed');
    assert.equal(await runStatusOf(bare, 'no-such-run'), null);
    assert.equal(bare.getRuns, 2);
  });
});
