// The studio's decisions, one by one: the draft offered back, the models a run may use and the one
// picked, what stops a run, the keys, and what a save says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { draftOffer, modelChoicesFor, modelShown, pickModel, runRefusal, savedNotice, shortcutOf } from './studio-logic';

const when = (ms: number) => `@${ms}`;

test('a draft is offered back only when it differs from what the page opened, saying whether it was made on an older version', () => {
  const opened = { 'skill.md': 'A' };
  assert.equal(draftOffer(null, opened, 'h1', when), null);
  assert.equal(draftOffer({ files: { 'skill.md': 'A' }, base: 'h1', at: 5 }, opened, 'h1', when), null);
  assert.deepEqual(draftOffer({ files: { 'skill.md': 'B' }, base: 'h1', at: 5 }, opened, 'h1', when), { files: { 'skill.md': 'B' }, note: 'Your unsaved changes from @5 are back.' });
  assert.match(draftOffer({ files: { 'skill.md': 'B' }, base: 'h0', at: 5 }, opened, 'h1', when)!.note, /made on an older version than the latest/);
  // a file added in the draft is a difference too
  assert.ok(draftOffer({ files: { 'skill.md': 'A', 'x.py': '' }, base: 'h1', at: 5 }, opened, 'h1', when));
});

test('the model choices: each model script of the bundle, then the endpoint, disabled with the reason when it is not configured', () => {
  const files = { 'skill.md': 'x', 'model.yaml': 'turns:\n  - finish: {}\n', 'notes.yaml': 'a: 1\n' };
  const off = modelChoicesFor(files, { configured: false, model: null });
  assert.deepEqual(
    off.map((c) => [c.value, c.disabled]),
    [
      ['scripted:model.yaml', false],
      ['openai', true],
    ],
  );
  assert.match(off[1].label, /not configured \(set STAGECRAFT_MODEL_BASE_URL/);
  assert.equal(modelChoicesFor(files, { configured: true, model: 'gpt-x' })[1].label, 'OpenAI-compatible endpoint (gpt-x)');
  // the pick stays while it is a usable choice, else falls to the first usable one
  assert.equal(pickModel(off, 'scripted:model.yaml'), 'scripted:model.yaml');
  assert.equal(pickModel(off, 'openai'), 'scripted:model.yaml');
  assert.equal(pickModel(off, null), 'scripted:model.yaml');
  assert.equal(pickModel(modelChoicesFor({ 'skill.md': 'x' }, { configured: false, model: null }), null), '');
});

test('what stops a run: errors in skill.md first, then the input, then a missing model', () => {
  const good = { value: { a: 1 }, problems: [] };
  assert.equal(runRefusal(0, good, 'scripted:model.yaml'), null);
  assert.equal(runRefusal(2, good, 'm'), 'skill.md has 2 errors: fix them (see Problems) before running.');
  assert.equal(runRefusal(1, good, 'm'), 'skill.md has 1 error: fix it (see Problems) before running.');
  assert.equal(runRefusal(0, { value: null, problems: [{ line: 1, column: 9, message: 'expected a string' }] }, 'm'), 'The input is not right: 1:9 expected a string.');
  assert.equal(runRefusal(0, { value: null, problems: [] }, 'm'), 'The input is not right: it must be a JSON object.');
  assert.match(runRefusal(0, good, '')!, /No model to run with/);
});

test('Ctrl or Cmd with S saves and with Enter runs; nothing else, and nothing already handled', () => {
  const k = (key: string, over: Partial<{ ctrlKey: boolean; metaKey: boolean; defaultPrevented: boolean }> = {}) =>
    shortcutOf({ key, ctrlKey: true, metaKey: false, defaultPrevented: false, ...over });
  assert.equal(k('s'), 'save');
  assert.equal(k('S'), 'save');
  assert.equal(k('Enter'), 'run');
  assert.equal(k('Enter', { ctrlKey: false, metaKey: true }), 'run');
  assert.equal(k('s', { ctrlKey: false }), null);
  assert.equal(k('s', { defaultPrevented: true }), null);
  assert.equal(k('x'), null);
});

test('a save says the version, whether it is new, and that errors block runs', () => {
  const v = (isNew: boolean, errors: number) =>
    savedNotice({ isNew, version: { hash: 'abcdef0123456789' } as never, validation: { ok: errors === 0, file: 'skill.md', errors, warnings: 0, diagnostics: [] } });
  assert.deepEqual(v(true, 0), { kind: 'ok', text: 'Saved as version abcdef01' });
  assert.deepEqual(v(false, 0), { kind: 'ok', text: 'Saved: same as version abcdef01' });
  assert.deepEqual(v(true, 1), { kind: 'error', text: 'Saved as version abcdef01 — skill.md has 1 error; runs are refused until they are fixed' });
});

test('with no usable model the select says so (not a blank box) and the note says what to add; else the unusable choice is explained', () => {
  const none = modelChoicesFor({ 'skill.md': 'x' }, { configured: false, model: null });
  const shown = modelShown(none, pickModel(none, null));
  assert.equal(shown.placeholder, 'No model to run with');
  assert.match(shown.note!, /add a model script \(model\.yaml.*STAGECRAFT_MODEL_BASE_URL/);
  const files = { 'skill.md': 'x', 'model.yaml': 'turns: []\n' };
  const some = modelChoicesFor(files, { configured: false, model: null });
  const picked = modelShown(some, pickModel(some, null));
  assert.equal(picked.placeholder, null);
  assert.match(picked.note!, /not configured/);
});
