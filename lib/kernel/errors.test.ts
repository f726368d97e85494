// An error made by one copy of errors.ts (its base, error-families/base.ts) is still a StagecraftError to another
// copy (the Next server bundles its start-up hook and its routes apart, and
// errors cross between them); subclasses keep their own, exact check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunNotFoundError, RunStillRunningError, SkillExistsError, SkillNotFoundError, StagecraftError, errorToJson } from './errors';

test('instanceof StagecraftError holds across copies of the module; subclass checks stay exact', async () => {
  // the brand lives in the base module (errors.ts re-exports it): a second copy of it, and a failure
  // kind made on that copy, as a second bundle's SkillExistsError is made on its own base
  const copy = (await import(`./error-families/base.ts?copy=${Date.now()}`)) as typeof import('./error-families/base');
  assert.notEqual(copy.StagecraftError, StagecraftError, 'a second copy of the module');
  class TheirSkillExistsError extends copy.StagecraftError {
    constructor(name: string) {
      super('skill_exists', `A skill named ${JSON.stringify(name)} already exists`, { httpStatus: 409, details: { skill: name } });
    }
  }
  const theirs = new TheirSkillExistsError('x');
  assert.ok(theirs instanceof StagecraftError);
  assert.deepEqual(errorToJson(theirs), { skill: 'x', code: 'skill_exists', message: theirs.message });
  const ours = new SkillExistsError('x');
  assert.ok(ours instanceof copy.StagecraftError);
  assert.ok(ours instanceof SkillExistsError);
  assert.ok(!(ours instanceof RunNotFoundError));
  assert.ok(!(new Error('plain') instanceof StagecraftError));
  assert.ok(!({ code: 'x', httpStatus: 400 } instanceof StagecraftError), 'a look-alike is not one');
});

test('a running run refused (409) names only what waits for its end: compare reads a running run, so it is not among them', () => {
  const e = new RunStillRunningError('r1');
  assert.equal(e.httpStatus, 409);
  assert.match(e.message, /replayed, forked or exported once it has ended/);
  assert.doesNotMatch(e.message, /compared .*once/);
});

test('an unknown skill name longer than any name can be is quoted cut short, with its length', () => {
  const long = 'a'.repeat(5000);
  const e = new SkillNotFoundError(long);
  assert.ok(e.message.length < 400, `the message stays short (${e.message.length} characters)`);
  assert.match(e.message, /^No skill named "a{64}…" \(5000 characters: no skill name is longer than 64\)\. List the skills/);
  assert.equal(e.details.skill, long, 'the details keep the name as asked');
  // a name of a possible length is quoted whole
  assert.match(new SkillNotFoundError('nope').message, /^No skill named "nope"\. /);
});
