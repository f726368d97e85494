// The version diff: file by file, with the lines that changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffBundles } from './bundle-diff';

test('diffBundles: added, removed and changed files, skill.md first, unchanged ones left out', () => {
  const from = { 'skill.md': 'a\nb\nc\n', 'old.py': 'x = 1\n', 'same.txt': 'same\n' };
  const to = { 'skill.md': 'a\nB\nc\n', 'new.py': 'y = 2\n', 'same.txt': 'same\n' };
  const d = diffBundles(from, to);
  assert.deepEqual(
    d.map((f) => [f.path, f.change, f.added, f.removed]),
    [
      ['skill.md', 'changed', 1, 1],
      ['new.py', 'added', 1, 0],
      ['old.py', 'removed', 0, 1],
    ],
  );
  assert.deepEqual(d[0].hunks[0].lines, [
    { kind: ' ', text: 'a' },
    { kind: '-', text: 'b' },
    { kind: '+', text: 'B' },
    { kind: ' ', text: 'c' },
  ]);
  assert.deepEqual(diffBundles(from, from), []);
});
