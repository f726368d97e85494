// `--set PATH=JSON` (and the API's `set`) edits the part the path names, or refuses a path it cannot
// read: a half-read path ("[[[", "items[", "[0") must never edit another part, or the whole value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editPath, modelTurnCheck, modelTurnCheckFor, setAtPath } from './fork-edits';

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

test("a model turn's edit with a key a turn does not have is refused, not dropped: `--set title=…` at draft/r1/model changed nothing and the fork ran", () => {
  const turn = { text: 'Drafting.', toolCalls: [], finish: { title: 'Old', body: 'B' } };
  const edited = setAtPath(turn, 'title', '');
  assert.deepEqual(modelTurnCheck(edited).errors, ["title is not part of a model turn (text, toolCalls, finish, usage), so editing it would change nothing — the finish artifact's title is finish.title"]);
  assert.deepEqual(modelTurnCheck(setAtPath(turn, 'note', 1)).errors, ['note is not part of a model turn (text, toolCalls, finish, usage), so editing it would change nothing']);
  // the turn's own parts are edited as before
  assert.deepEqual(modelTurnCheck(setAtPath(turn, 'finish.title', 'New')), { value: { text: 'Drafting.', toolCalls: [], finish: { title: 'New', body: 'B' } }, errors: [] });
  assert.deepEqual(modelTurnCheck({ finish: { n: 1 }, usage: { inputTokens: 1, outputTokens: 2 } }).errors, []);
});

test("a model turn's edited finish is held to its phase's contract, as the model's own finish is: before, the fork ran with it and the kernel asked the model again", () => {
  const schema = {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1 }, body: { type: 'string' }, steps: { type: 'integer', 'x-derived': 'stepCount' } },
    required: ['title', 'body', 'steps'],
  };
  const check = modelTurnCheckFor({ phase: 'draft', schema, derived: ['steps'] });
  const turn = { text: 'Drafting.', toolCalls: [], finish: { title: 'Old', body: 'B' } };
  // a field the kernel derives itself need not be written (it overrides it)
  assert.deepEqual(check(turn).errors, []);
  assert.deepEqual(check(setAtPath(turn, 'finish.title', '')).errors, [
    "finish does not satisfy the output schema of phase draft, the contract the model's own finish is held to: /title must NOT have fewer than 1 characters",
  ]);
  // a turn calling tools does not finish (its finish is not read); one without a finish goes on to another round
  assert.deepEqual(check({ toolCalls: [{ op: 'file/read', args: {} }], finish: { title: '' } }).errors, []);
  assert.deepEqual(check({ text: 'Thinking.' }).errors, []);
  // where a finalize stage may patch the finish first, only the shape is checked
  assert.deepEqual(modelTurnCheckFor(null)(setAtPath(turn, 'finish.title', '')).errors, []);
});
