// The New file dialog told a user typing `.git/config` to "Remove the file from the bundle", which it
// was not in yet: the path is refused as before, with where to put the file instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newFilePathProblem } from './new-file-path';

test('a new path in a version-control folder says to name it elsewhere, not to remove it from the bundle', () => {
  const said = newFilePathProblem('.git/config', ['skill.md']);
  assert.match(said ?? '', /^Bundle path "\.git\/config" is inside a version-control folder \(`\.git`\): a bundle never holds one/);
  assert.match(said ?? '', /\(or hg, svn…\)\. Name the file by a path outside that folder\.$/);
  assert.doesNotMatch(said ?? '', /Remove the file from the bundle/);
});

test('other paths are said as before', () => {
  assert.equal(newFilePathProblem('', []), null);
  assert.equal(newFilePathProblem('a.py', []), null);
  assert.equal(newFilePathProblem('skill.md', ['skill.md']), 'skill.md is already in the bundle.');
  assert.match(newFilePathProblem('../x', []) ?? '', /leaves the bundle/);
});
