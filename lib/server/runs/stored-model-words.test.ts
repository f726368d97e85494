// POST /api/runs with a model no spec names answered "Use `scripted:FILE` (a model script file: the
// bundle folder's, else the working directory's)…", though a stored skill's run takes only its own
// scripts: the forms it takes are said instead; a folder's run keeps its words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkModelSpec } from '../../models';
import { storedModelSpec } from './start-run';

test("a stored run's unknown model is told the skill's scripts, not the working directory's", () => {
  assert.throws(
    () => storedModelSpec('bogus', { 'skill.md': '', 'model.yaml': '' }, '/d/bundles/x'),
    (e: Error) => {
      assert.match(e.message, /^Unknown model "bogus"\. Use `scripted:FILE` \(a model script file of the skill, e\.g\. scripted:model\.yaml\), `openai`/);
      assert.doesNotMatch(e.message, /working directory/);
      return true;
    },
  );
  assert.equal(storedModelSpec('openai:m', {}, '/d'), 'openai:m');
  assert.throws(() => checkModelSpec('bogus'), /^UsageError: Unknown model "bogus"\. Use `scripted:FILE` \(a model script file: the bundle folder's, else the working directory's\)/);
});
