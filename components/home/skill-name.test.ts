// The New skill and Rename dialogs say what is wrong with a name in their own words, before the server is asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skillNameProblem } from './skill-name';

test('a name the server would refuse is said plainly; a good one passes', () => {
  for (const bad of ['Bad Name!', '1abc', 'a-b', '_x', 'x'.repeat(65), 'Summarize']) {
    const said = skillNameProblem(bad);
    assert.ok(said, bad);
    assert.match(said, /cannot name a skill: start with a lowercase letter/);
    assert.ok(!said.includes('request body'));
  }
  for (const good of ['a', 'my_skill', 'sum2', 'x'.repeat(64)]) assert.equal(skillNameProblem(good), null, good);
});
