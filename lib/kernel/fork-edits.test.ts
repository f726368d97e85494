// `--set PATH=JSON` (and the API's `set`) edits the part the path names, or refuses a path it cannot
// read: a half-read path ("[[[", "items[", "[0") must never edit another part, or the whole value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editPath, setAtPath } from './fork-edits';

test('a path that is not one is refused by name, and nothing is edited', () => {
  const v = { paragraphs: ['a', 'b'], n: 1 };
  for (const bad of ['[[[', 'paragraphs[', '[0', ']', 'a..b', 'paragraphs]0[', 'paragraphs[x]', '.a', 'a.']) {
    assert.throws(
      () => setAtPath(v, bad, 'x'),
      (e: Error & { code?: string }) => e.code === 'fork_edit_invalid' && e.message.includes(`--set ${bad}: not a path`),
      bad,
    );
  }
  assert.deepEqual(v, { paragraphs: ['a', 'b'], n: 1 });
});

test('the paths the grammar names still read as before', () => {
  assert.deepEqual(editPath('paragraphs[0]'), ['paragraphs', 0]);
  assert.deepEqual(editPath('$.a.b[0].c'), ['a', 'b', 0, 'c']);
  assert.deepEqual(editPath('$[1]'), [1]);
  assert.deepEqual(editPath('[2].c'), [2, 'c']);
  assert.deepEqual(editPath('a[0][1]'), ['a', 0, 1]);
  assert.deepEqual(editPath('/a/b/0'), ['a', 'b', 0]);
  for (const whole of ['', '$', '.', '/']) assert.deepEqual(editPath(whole), []);
  assert.deepEqual(setAtPath({ p: ['a', 'b'] }, 'p[1]', 'B'), { p: ['a', 'B'] });
});
