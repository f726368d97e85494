// The stream of a run another process drives (`stagecraft events RUN --follow` on Postgres, the run page's
// stream beside a CLI `resume`): it polls for events past its cursor, and reads the run's status when it
// finds none. A run that ended between those two reads (an `abort` from another shell commits its
// run_aborted event and its status at once) ended the stream without that last event: the follower's last
// line was the event before it (a clean-clone CI of events-follow.db.test caught it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunEvent, RunStatus } from '../../kernel/ports';
import { streamRunEvents, type StreamedMessage } from './stream-run-events';

const event = (seq: number, type: string): RunEvent => ({ runId: 'run_x', seq, type, at: 1_796_000_000_000 + seq, data: {} });

/** a store whose run gets its last event and its end between the stream's read of the log and its read of the status */
function storeEndingBetweenReads() {
  const log = [event(1, 'run_started'), event(2, 'phase_started')];
  let statusReads = 0;
  return {
    async readEvents(_runId: string, after = 0, limit = Infinity) {
      return log.filter((e) => e.seq > after).slice(0, limit);
    },
    async getRunStatus(): Promise<RunStatus> {
      // the first read is the stream's "does it exist"; the second comes after a read that found nothing new
      if (++statusReads === 2) log.push(event(3, 'run_aborted'));
      return statusReads >= 2 ? 'aborted' : 'running';
    },
  };
}

test('a run that ends between the read of its log and the read of its status: its last events are streamed before the end', async () => {
  const store = storeEndingBetweenReads();
  const got: StreamedMessage[] = [];
  for await (const m of await streamRunEvents({ store } as never, 'run_x', { pollMs: 5 })) got.push(m);
  assert.deepEqual(
    got.map((m) => (m.event === 'end' ? `end ${m.data.status}` : (m.data as { type: string }).type)),
    ['run_started', 'phase_started', 'run_aborted', 'end aborted'],
  );
});

test('a stream opened past the last event of an ended run says its end at once', async () => {
  const store = { readEvents: async () => [], getRunStatus: async (): Promise<RunStatus> => 'completed' };
  const got: StreamedMessage[] = [];
  for await (const m of await streamRunEvents({ store } as never, 'run_x', { after: 9, pollMs: 5 })) got.push(m);
  assert.deepEqual(got, [{ event: 'end', data: { runId: 'run_x', status: 'completed' } }]);
});
