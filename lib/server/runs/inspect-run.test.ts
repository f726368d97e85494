// The inspector's server operations on a real run of an example (the app's path: version, copy,
// sandbox, kernel) in the in-memory store: each answer parses with its view; a seq past the log or a
// ref to nothing is a 404 with a message that says what to ask for; a running run's fold is extended
// by what it records next, not refolded; the price table is read from STAGECRAFT_PRICES.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSkillRun } from './start-run';
import { memoryHost } from '../testing';
import { getRunTimeline } from './get-run-timeline';
import { getRunState } from './get-run-state';
import { getRunItem } from './get-run-item';
import { getRunValue } from './get-run-value';
import { foldRun } from './run-folds';
import { priceTableFrom } from './prices';
import { RunItemView, RunStateView, RunTimelineView, RunValueView } from '../../views';
import { EventNotFoundError, RunNotFoundError, UsageError, ValueNotFoundError } from '../../kernel/errors';
import { deps, phase, plan, playModel } from '../../kernel/testing';
import { resumeRun, startRun } from '../../kernel/runner';
import { crashAt, SimulatedCrash } from '../../kernel/faults';

const examples = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../examples');
const PRICES = JSON.stringify({ currency: 'EUR', models: { '*': { input: 1, output: 2 } } });

async function researchBrief() {
  const host = memoryHost({ cwd: examples, env: { STAGECRAFT_PRICES: PRICES } });
  const outcome = await startSkillRun(host, { bundle: 'research_brief', input: JSON.parse(readFileSync(path.join(examples, 'research_brief/input.json'), 'utf8')) });
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
  return { host, runId: outcome.runId };
}

test('the timeline of research_brief: blocked by path_guard, opened on it, with the trim in words', async () => {
  const { host, runId } = await researchBrief();
  const t = RunTimelineView.parse(await getRunTimeline(host, runId));
  assert.equal(t.report.outcome, 'blocked');
  assert.equal(t.report.attention, 'blocked');
  assert.equal(t.selected, 'gather/r1/pre-tool/path_guard');
  const lanes = t.visits[0].rounds[0].lanes;
  const guard = lanes.find((l) => l.rung === 'pre-tool')!.traces[0];
  assert.equal(guard.label, 'pre-tool path_guard/path_guard ok');
  assert.equal(guard.summary, 'denied call 2 (reading secrets/keys.txt is not allowed by path_guard)');
  assert.ok(guard.line !== null && guard.line > 1, 'the capability has its skill.md line');
  assert.match(lanes.find((l) => l.rung === 'post-tool')!.traces[0].summary, /^trimmed result 1 from \d+ to 400 characters; kept 1 text in the workspace$/);
  assert.deepEqual(t.price, { model: '*', currency: 'EUR', input: 1, output: 2 });
});

test('the state at every seq parses; a seq past the log is a 404 that says what to ask for', async () => {
  const { host, runId } = await researchBrief();
  const last = RunStateView.parse(await getRunState(host, runId));
  assert.equal(last.status, 'completed');
  for (let k = 0; k <= last.lastSeq; k++) RunStateView.parse(await getRunState(host, runId, { seq: k }));
  const err = await getRunState(host, runId, { seq: last.lastSeq + 1 }).catch((e) => e);
  assert.ok(err instanceof EventNotFoundError);
  assert.equal(err.httpStatus, 404);
  assert.match(err.message, new RegExp(`has ${last.lastSeq} events so far; there is no event ${last.lastSeq + 1}\\. Ask for a seq from 0`));
  await assert.rejects(getRunState(host, 'run_nope'), RunNotFoundError);
  await assert.rejects(getRunItem(host, runId, 0), EventNotFoundError);
});

test('an item and a value: the guard was handed the batch; a ref answers its value; a bad ref is a 404', async () => {
  const { host, runId } = await researchBrief();
  const { fold } = await foldRun(host.store, runId);
  const seq = fold.records.get('gather/r1/pre-tool/path_guard')![0].seq;
  const item = RunItemView.parse(await getRunItem(host, runId, seq));
  assert.ok(item.kind === 'stage');
  assert.equal(item.rebuilt.verified, true);
  assert.deepEqual(item.context.requests?.map((r) => r.op), ['file/read', 'file/read', 'file/read']);
  const v = RunValueView.parse(await getRunValue(host, runId, { seq, path: 'item/context/requests/2/args' }));
  assert.deepEqual(v.value, { path: 'secrets/keys.txt' });
  const err = await getRunValue(host, runId, { seq, path: 'item/context/nothing' }).catch((e) => e);
  assert.ok(err instanceof ValueNotFoundError);
  assert.equal(err.httpStatus, 404);
});

test("a running run's fold is extended by what it records next, never refolded", async () => {
  const p = plan({ phases: { main: phase('main') } });
  const d = deps(playModel([{ text: 'thinking' }, { finish: { ok: true } }]), { faults: crashAt('before-step', 2) });
  let runId = '';
  await assert.rejects(startRun(p, d, { input: {}, skillText: '', onCreated: (id) => (runId = id) }), SimulatedCrash);
  const host = { store: d.store };
  const first = await foldRun(d.store, runId);
  const before = first.fold.lastSeq;
  assert.equal((await getRunState(host, runId)).status, 'running');
  await resumeRun(runId, () => p, { ...d, faults: undefined, model: playModel([{ finish: { ok: true } }]) });
  const again = await foldRun(d.store, runId);
  assert.equal(again.fold, first.fold, 'the same fold, extended');
  assert.ok(again.fold.lastSeq > before);
  assert.equal(again.fold.lastSeq, (await d.store.readEvents(runId)).length);
  assert.equal((await getRunState(host, runId)).status, 'completed');
});

test('STAGECRAFT_PRICES: inline JSON or a file; anything else is a clear error', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'sc-prices-'));
  assert.equal(priceTableFrom({}, cwd), null);
  assert.deepEqual(priceTableFrom({ STAGECRAFT_PRICES: '{"models":{"gpt-4o-mini":{"input":0.15,"output":0.6}}}' }, cwd), {
    currency: 'USD',
    models: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } },
  });
  writeFileSync(path.join(cwd, 'prices.json'), PRICES);
  assert.equal(priceTableFrom({ STAGECRAFT_PRICES: 'prices.json' }, cwd)?.currency, 'EUR');
  assert.throws(() => priceTableFrom({ STAGECRAFT_PRICES: 'nope.json' }, cwd), (e: Error) => e instanceof UsageError && /nope\.json, which does not exist/.test(e.message));
  assert.throws(() => priceTableFrom({ STAGECRAFT_PRICES: '{"models": ' }, cwd), /is not JSON/);
  assert.throws(() => priceTableFrom({ STAGECRAFT_PRICES: '{"models": {"m": {"input": -1, "output": 1}}}' }, cwd), /at models\.m\.input: .*Write \{"currency"/);
});
