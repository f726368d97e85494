// The words of a denied call that blocked a run, from one helper everywhere: each place's string is
// the one it wrote by hand before (the report's summary, the studio's recent runs, a runs row, the CLI's cell).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockedByWords, byStageWords, deniedCallWords } from './blocked-by';
import { deniedCall } from '../kernel/denied-words';

const b = { stage: 'path_guard', call: 2, reason: 'reading secrets/keys.txt is not allowed by path_guard' };

test('each place says a denied call in the words it always did', () => {
  // the report's summary: `Completed, but blocked: ${…}.`; the studio: `: ${…}` after "needs attention (blocked)"
  assert.equal(deniedCallWords(b), 'stage path_guard denied call 2 (reading secrets/keys.txt is not allowed by path_guard)');
  // /runs, the home page: the row's words
  assert.equal(blockedByWords(b), 'blocked by stage path_guard: denied call 2 (reading secrets/keys.txt is not allowed by path_guard)');
  // `stagecraft runs`' BLOCKED cell: the row's words without their "blocked " (was cut off them by a regex)
  assert.equal(byStageWords(b), 'by stage path_guard: denied call 2 (reading secrets/keys.txt is not allowed by path_guard)');
  assert.equal(byStageWords(b), blockedByWords(b).replace(/^blocked /, ''));
  // a stage's few words (summaries.ts): the call as the deny map's key
  assert.equal(deniedCall('0', 'no'), 'denied call 0 (no)');
});
