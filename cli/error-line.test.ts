// The CLI's words for a run's own folder that now holds another skill: the flags that get past it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SkillMismatchError } from '../lib/kernel/errors';
import { inCliWords } from './error-line';

test("a run's own folder of another skill: the recorded version's --version, else the versions to pick one from", () => {
  const recorded = inCliWords(new SkillMismatchError('run_a', 'summarize', '/w/own', 'elsewhere', { hash: 'abcdef0123456789' })) as SkillMismatchError;
  assert.match(recorded.message, /Pass --version abcdef012345 to use the version the run recorded, or --skill DIR with a folder of "summarize"/);
  assert.equal(recorded.details.recordedVersion, 'abcdef0123456789');
  const none = inCliWords(new SkillMismatchError('run_a', 'summarize', '/w/own', 'elsewhere', { hash: null })) as SkillMismatchError;
  assert.match(none.message, /Pass --version HASH of one of its versions \(`stagecraft versions summarize` lists them\), or --skill DIR/);
  assert.doesNotMatch(none.message, /leave --skill out/);
  assert.equal(none.code, 'skill_mismatch');
  // a --skill folder of another skill keeps its own words
  const given = inCliWords(new SkillMismatchError('run_a', 'summarize', 'other', 'elsewhere')) as SkillMismatchError;
  assert.match(given.message, /leave --skill out to use its latest version/);
});
