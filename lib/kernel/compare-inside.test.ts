// A fork that edited a step nested in an iterate, compared with a run that answered that iterate
// whole from a recording: A's nested steps are not compared (B never ran them one by one), and the
// comparison says which of B's answered steps holds them, how many there are, and that A's edit is
// among them — not that B answered those steps themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareLogs } from './compare';
import { EVENT } from './events';
import type { RunEvent } from './ports';
import { insideAnsweredNote } from '../views/replay';

const log = (runId: string, steps: RunEvent['data'][]): RunEvent[] => [
  { runId, seq: 1, type: EVENT.runStarted, at: 1, data: { skill: 's', skillHash: 'h' } },
  ...steps.map((data, i) => ({ runId, seq: i + 2, type: EVENT.stepCompleted, at: i + 2, data: { kind: 'processor', status: 'ok', output: {}, ...data } })),
  { runId, seq: steps.length + 2, type: EVENT.runCompleted, at: steps.length + 2, data: { output: {}, error: null } },
];

test("nested steps inside a step the other run answered whole are counted by that step, with this run's edits among them", () => {
  const a = log('fork', [{ position: '__post__/0/0/0' }, { position: '__post__/0/1/0', edited: true, output: { n: 40 } }, { position: '__post__/0' }, { position: '__post__/1' }]);
  const b = log('other', [{ position: '__post__/0', recorded: { runId: 'parent', seq: 4 } }, { position: '__post__/1' }]);
  const cmp = compareLogs(a, b);
  assert.deepEqual([cmp.a.steps, cmp.a.insideAnswered], [2, 2]);
  assert.deepEqual(cmp.a.insideParents, [{ position: '__post__/0', steps: 2, edited: ['__post__/0/1/0'] }]);
  assert.deepEqual(cmp.b.insideParents, []);
  assert.equal(
    insideAnsweredNote(cmp.a, 'B'),
    "+2 nested steps of A not compared, A's edit at __post__/0/1/0 among them: they are inside __post__/0, which B answered whole from a recording",
  );
  // the other way round, the same steps are B's
  const back = compareLogs(b, a);
  assert.equal(insideAnsweredNote(back.b, 'A'), "+2 nested steps of B not compared, B's edit at __post__/0/1/0 among them: they are inside __post__/0, which A answered whole from a recording");
});

test('without an edit, the note still names the step that was answered whole', () => {
  const a = log('parent', [{ position: '__post__/0/0/0' }, { position: '__post__/0' }]);
  const b = log('fork', [{ position: '__post__/0', recorded: { runId: 'parent', seq: 3 } }]);
  assert.equal(insideAnsweredNote(compareLogs(a, b).a, 'B'), '+1 nested step of A not compared: it is inside __post__/0, which B answered whole from a recording');
});
