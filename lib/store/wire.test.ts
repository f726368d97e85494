// wire.ts's encoding of a run's end: its output and its report travel twice (in the run_completed
// event and in the run row's patch), each encoded once, and every text is JSON.stringify's exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommitUnit } from '../kernel/ports';
import type { JsonObject } from '../kernel/json';
import { ev, T0 } from './testing/fixtures';
import { batchLength } from './batches';
import { directCommit, opCommit } from './wire';

const id = 'run-wire';

/** a report whose `summary` counts how often it is read (once per encoding of the report) */
function countedReport() {
  const reads = { n: 0 };
  const report = { outcome: 'succeeded', steps: [1, null, { 'k"': 'ü\u0001' }] } as Record<string, unknown>;
  Object.defineProperty(report, 'summary', { enumerable: true, get: () => (reads.n++, 'Completed: 2 steps.') });
  return { reads, report: report as JsonObject };
}

function endOf(report: JsonObject, output: JsonObject): CommitUnit {
  // as runner.ts end(): the event's data holds the very objects the run patch writes, and members JSON skips
  const data = { output, error: null, report, gone: undefined, abort: { by: 'request' } } as unknown as JsonObject;
  return { events: [ev(id, 9, 'run_completed', data)], snapshot: 'delete', run: { status: 'completed', output, error: null, report, updatedAt: T0 + 9 } };
}

test("a run's end encodes its output and report once, for its event and its run row, each text exactly JSON.stringify's", () => {
  const { reads, report } = countedReport();
  const output = { i: 5, last: { pad: 'x'.repeat(40), q: '"\\' } };
  const unit = endOf(report, output);
  const direct = directCommit(id, unit)!;
  assert.equal(reads.n, 1, 'the report was encoded once');
  const [, , , , data] = direct.events[0];
  assert.equal(data, JSON.stringify(unit.events[0].data));
  const [, status, , outputText, errorText, reportText] = direct.moves!.run!;
  assert.deepEqual([status, outputText, errorText, reportText], ['completed', JSON.stringify(output), 'null', JSON.stringify(report)]);
  assert.ok((data as string).includes(reportText as string) && (data as string).includes(outputText as string));
});

test("the commit function's op of a run's end encodes them once too, and is what it was", () => {
  const { reads, report } = countedReport();
  const output = { n: 1 };
  const op = opCommit(id, endOf(report, output));
  assert.equal(reads.n, 1, 'the report was encoded once');
  const data = { output, error: null, report, abort: { by: 'request' } };
  assert.equal(
    op,
    JSON.stringify({
      op: 'commit',
      runId: id,
      unit: {
        events: [{ seq: 9, type: 'run_completed', at: T0 + 9, data: JSON.stringify(data) }],
        snapshot: 'delete',
        run: { status: 'completed', updatedAt: T0 + 9, output: JSON.stringify(output), error: 'null', report: JSON.stringify(report) },
      },
    }),
  );
});

test('an event whose data carries no value of the patch, or is not a plain object, is encoded as before', () => {
  const report = { outcome: 'failed' };
  const unit: CommitUnit = {
    events: [ev(id, 2, 'step_completed', { report: { outcome: 'failed' } }), { ...ev(id, 3), data: [report] as never }, { ...ev(id, 4), data: { toJSON: () => 'x' } as never }],
    run: { status: 'failed', report },
  };
  const texts = directCommit(id, unit)!.events.map((r) => r[4]);
  assert.deepEqual(texts, unit.events.map((e) => JSON.stringify(e.data)));
});

// a run's end whose output is copied from its event (outputFrom) sends it once on the direct path,
// but its op — sent if the direct write is refused — carries it twice, and `chars` is what a batch
// counts against MAX_BATCH_CHARS: two 15 MB run ends must not share a batch on Postgres
test("a direct write whose output is copied from its event still counts that output in its size, as its op carries it", () => {
  const output = { text: 'x'.repeat(15 * 1024 * 1024) };
  const end = (n: number) => directCommit(`run-${n}`, endOf({ outcome: 'succeeded' }, output))!;
  const [a, b] = [end(1), end(2)];
  assert.ok(a.moves!.run![6], 'the output is copied from the event');
  const opChars = opCommit('run-1', endOf({ outcome: 'succeeded' }, output)).length;
  assert.ok(a.chars >= opChars * 0.95, `chars ${a.chars} of an op of ${opChars}`);
  assert.equal(batchLength([{ op: '', chars: a.chars }, { op: '', chars: b.chars }]), 1, 'the two ends are sent apart');
});
