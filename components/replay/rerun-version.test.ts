import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rerunVersionNote } from './rerun-version';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

test("the rerun note: the same version when none newer is saved, else the latest named beside the run's", () => {
  assert.deepEqual(rerunVersionNote(A, A), { text: 'No newer version of the skill is saved: this reruns the same version (aaaaaaaa).', isSame: true });
  assert.equal(rerunVersionNote(A.slice(0, 12), A)?.isSame, true, 'a run naming its version by a prefix');
  assert.deepEqual(rerunVersionNote(A, B), { text: 'Reruns with the latest version, bbbbbbbb (this run ran aaaaaaaa).', isSame: false });
  assert.deepEqual(rerunVersionNote(null, B), { text: 'Reruns with the latest version, bbbbbbbb.', isSame: false });
  assert.equal(rerunVersionNote(A, null), null, 'nothing said while the versions are not known');
});
