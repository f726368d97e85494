// Which files of the working copy differ from the saved version: the studio's "unsaved" marks and
// whether a save has anything to save, known at each keystroke without rendering the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedPaths } from './use-working-copy';

test('the changed paths: text edited, files added and files removed, sorted; none when the same', () => {
  const saved = { 'skill.md': 'a', 'model.yaml': 'm', 'x.py': 'p' };
  assert.deepEqual(changedPaths({ ...saved }, saved), []);
  assert.deepEqual(changedPaths({ ...saved, 'skill.md': 'ab' }, saved), ['skill.md']);
  const { 'x.py': _gone, ...removed } = saved;
  assert.deepEqual(changedPaths({ ...removed, 'new.md': '', 'model.yaml': 'm2' }, saved), ['model.yaml', 'new.md', 'x.py']);
  // an empty new file differs from no file at all
  assert.deepEqual(changedPaths({ ...saved, 'e.txt': '' }, saved), ['e.txt']);
});
