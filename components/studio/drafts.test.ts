// Two tabs on one skill: each keeps its own unsaved draft. Before, the last tab to write took the
// one localStorage key and the other tab's unsaved text was gone once that tab was closed.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { clearDraft, countAsideDrafts, MAX_ASIDE_DRAFTS, newDraftOwner, readAsideDraft, readDraft, writeDraft } from './drafts';
import { draftOffer } from './studio-logic';

const store = new Map<string, string>();
(globalThis as { localStorage?: unknown }).localStorage = {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, String(v)),
  removeItem: (k: string) => void store.delete(k),
};
beforeEach(() => store.clear());

const files = (text: string) => ({ 'skill.md': text });
const saved = files('saved');

test('two tabs typing into one skill: the tab written over keeps its draft aside, offered once the other is saved', () => {
  const one = newDraftOwner();
  const two = newDraftOwner();
  writeDraft('s', { files: files('saved + one'), base: 'h1', at: 1 }, one);
  writeDraft('s', { files: files('saved + two'), base: 'h1', at: 2 }, two);
  // tab one closes (its draft written at once), then tab two types on
  writeDraft('s', { files: files('saved + one'), base: 'h1', at: 3 }, one);
  writeDraft('s', { files: files('saved + two more'), base: 'h1', at: 4 }, two);
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + two more');
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'saved + one');

  // a third tab opens on the newest and is told the other is kept
  const offer = draftOffer(readDraft('s'), saved, 'h1', (ms) => `@${ms}`, readAsideDraft('s'));
  assert.equal(offer?.note, "Your unsaved changes from @4 are back. Another tab's unsaved changes from @3 are kept too: they are offered here when the skill next opens, once these are saved or discarded.");
  const three = newDraftOwner();
  three.took.add(readDraft('s')!.tab!);
  writeDraft('s', { files: files('saved + two more!'), base: 'h1', at: 5 }, three);
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'saved + one', 'carrying on the draft it took back puts nothing aside');

  // saving there clears its draft, and tab one's takes its place
  clearDraft('s', three);
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + one');
  assert.equal(readAsideDraft('s'), null);
  // a tab with nothing unsaved does not clear another tab's draft
  clearDraft('s', two);
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + one');
});

test('one tab alone writes over and clears its own draft, as before', () => {
  const one = newDraftOwner();
  writeDraft('s', { files: files('a'), base: 'h1', at: 1 }, one);
  writeDraft('s', { files: files('b'), base: 'h1', at: 2 }, one);
  assert.equal(readAsideDraft('s'), null);
  clearDraft('s', one);
  assert.equal(readDraft('s'), null);
});

test("a tab that saves while its draft is put aside clears that one too: it does not come back as unsaved when the other tab is done", () => {
  const one = newDraftOwner();
  const two = newDraftOwner();
  writeDraft('s', { files: files('saved + one'), base: 'h1', at: 1 }, one);
  writeDraft('s', { files: files('saved + two'), base: 'h1', at: 2 }, two);
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'saved + one');
  clearDraft('s', one); // tab one saves: its text is a version now
  assert.equal(readAsideDraft('s'), null);
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + two', "tab two's draft stays");
  clearDraft('s', two); // then tab two saves
  assert.equal(readDraft('s'), null, 'nothing offered back: both were saved');
});

test('three tabs typing into one skill: each tab written over keeps its draft aside, offered one at a time as each is saved', () => {
  const one = newDraftOwner();
  const two = newDraftOwner();
  const three = newDraftOwner();
  writeDraft('s', { files: files('saved + one'), base: 'h1', at: 1 }, one);
  writeDraft('s', { files: files('saved + two'), base: 'h1', at: 2 }, two);
  writeDraft('s', { files: files('saved + three'), base: 'h1', at: 3 }, three);
  // before, tab two's put aside wrote over tab one's: 'saved + one' was gone
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + three');
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'saved + one');
  assert.equal(countAsideDrafts('s'), 2);
  const offer = draftOffer(readDraft('s'), saved, 'h1', (ms) => `@${ms}`, readAsideDraft('s'), countAsideDrafts('s') - 1);
  assert.equal(
    offer?.note,
    "Your unsaved changes from @3 are back. Another tab's unsaved changes from @1 are kept too: they are offered here when the skill next opens, once these are saved or discarded. Unsaved changes from 1 more tab are kept as well, offered one at a time after those.",
  );

  // tab two types on: its newer text is the draft, its older one is no longer aside, tab three's is
  writeDraft('s', { files: files('saved + two more'), base: 'h1', at: 4 }, two);
  assert.deepEqual(
    [readDraft('s')?.files['skill.md'], countAsideDrafts('s')],
    ['saved + two more', 2],
  );
  // each save hands the draft on to the next tab's, none lost
  clearDraft('s', two);
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + one');
  const reopened = newDraftOwner();
  reopened.took.add(readDraft('s')!.tab!);
  clearDraft('s', reopened);
  assert.equal(readDraft('s')?.files['skill.md'], 'saved + three');
  assert.equal(readAsideDraft('s'), null);
  clearDraft('s', three);
  assert.equal(readDraft('s'), null);
});

test('a draft put aside by an older page (one draft, not a list) is still offered', () => {
  store.set('stagecraft:draft:s:other-tab', JSON.stringify({ files: files('old aside'), base: 'h1', at: 1, tab: 'x' }));
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'old aside');
  const one = newDraftOwner();
  writeDraft('s', { files: files('mine'), base: 'h1', at: 2 }, one);
  clearDraft('s', one);
  assert.equal(readDraft('s')?.files['skill.md'], 'old aside');
});

test('one draft put aside is stored as an older page stored it (an object), so a tab still on that page reads it', () => {
  const one = newDraftOwner();
  const two = newDraftOwner();
  writeDraft('s', { files: files('saved + one'), base: 'h1', at: 1 }, one);
  writeDraft('s', { files: files('saved + two'), base: 'h1', at: 2 }, two);
  const raw = JSON.parse(store.get('stagecraft:draft:s:other-tab')!) as unknown;
  assert.equal(Array.isArray(raw), false);
  assert.equal((raw as { files: Record<string, string> }).files['skill.md'], 'saved + one');
});

test('a list where a draft belongs (an older page carried a newer one\'s aside list into the draft key) reads as no draft, and the page opens', () => {
  store.set('stagecraft:draft:s', JSON.stringify([{ files: files('a'), base: 'h1', at: 1, tab: 'x' }]));
  assert.equal(readDraft('s'), null);
  assert.equal(draftOffer(readDraft('s'), saved, 'h1', (ms) => `@${ms}`, readAsideDraft('s'), 0), null);
  store.set('stagecraft:draft:s:other-tab', JSON.stringify([{ nofiles: true }, 'text', { files: files('b'), base: 'h1', at: 2, tab: 'y' }]));
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'b');
  assert.equal(countAsideDrafts('s'), 1);
});

test(`many tabs written over keep only the newest ${MAX_ASIDE_DRAFTS} drafts aside, and one text once`, () => {
  for (let i = 1; i <= MAX_ASIDE_DRAFTS + 4; i++) writeDraft('s', { files: files(`tab ${i}`), base: 'h1', at: i }, newDraftOwner());
  assert.equal(readDraft('s')?.files['skill.md'], `tab ${MAX_ASIDE_DRAFTS + 4}`);
  assert.equal(countAsideDrafts('s'), MAX_ASIDE_DRAFTS);
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'tab 4');
  store.clear();
  for (let i = 1; i <= 4; i++) writeDraft('s', { files: files(i === 4 ? 'last' : 'same text'), base: 'h1', at: i }, newDraftOwner());
  assert.equal(countAsideDrafts('s'), 1);
  assert.equal(readAsideDraft('s')?.files['skill.md'], 'same text');
  assert.equal(readAsideDraft('s')?.at, 3);
});
