// The compare view's choice, on the in-memory host: A defaults to the last completed run of B's
// skill before it; the runs B is often set beside are offered (its parent, its replays and forks),
// never the one already beside it; an unknown run is RunNotFoundError. And under it, the comparison
// `stagecraft compare --json` and `GET /api/compare` answer: a run set beside itself compares
// "identical", which says nothing of a change, so the answer says it is one run (`sameRun`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunNotFoundError } from '../../kernel/errors';
import { routes } from '../../api/routes';
import { memoryHost } from '../testing';
import { comparePage, missingRunsProblem, RECENT } from './compare-page';
import { compareOrBaseline, compareRuns } from './compare-runs';
import { forkRun } from './fork-run';
import { replayRun } from './replay-run';
import { startSkillRun } from './start-run';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-compare-page-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));

test('B alone is set beside the last completed run before it; its parent, replays and forks are offered', async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const replay = await replayRun(host, parent.runId);
  const fork = await forkRun(host, parent.runId, { at: '__post__', set: [{ path: 'paragraphs', value: ['One.'] }] });

  const first = await comparePage(host, null, parent.runId);
  assert.equal(first.view, null, 'nothing completed before the first run: A must be named');
  assert.deepEqual(
    first.suggestions.map((s) => [s.runId, s.isLater]).sort(),
    [
      [fork.runId, true],
      [replay.replayRunId, true],
    ].sort(),
  );

  const ofFork = await comparePage(host, null, fork.runId);
  assert.equal(ofFork.isBaseline, true);
  assert.equal(ofFork.view?.a.runId, parent.runId, 'the last completed run before the fork is its parent');
  assert.equal(ofFork.view?.firstDivergence?.position, '__post__/0');
  assert.deepEqual(ofFork.suggestions, [], 'the parent is beside it already');

  const named = await comparePage(host, replay.replayRunId, fork.runId);
  assert.equal(named.isBaseline, false);
  assert.deepEqual(named.suggestions.map((s) => s.label), ['its parent (B is a fork of it)']);

  await assert.rejects(comparePage(host, null, 'run_nope'), RunNotFoundError);
  await assert.rejects(comparePage(host, 'run_nope', fork.runId), RunNotFoundError);
});

test("a run that does not exist is named with its side, in the page's words, both sides when both are missing", async () => {
  const host = memoryHost({ cwd: workspace });
  const run = await startSkillRun(host, { bundle: 'summarize', input });
  assert.equal(await missingRunsProblem(host, 'run_nope', run.runId), 'No run with id run_nope (Run A). Check the id, or open a run from the Runs list and press Compare on its page.');
  assert.match(await missingRunsProblem(host, null, 'run_nope2'), /^No run with id run_nope2 \(Run B\)\./);
  const both = await missingRunsProblem(host, 'run_nope', 'run_nope2');
  assert.match(both, /^No run with id run_nope \(Run A\) nor with id run_nope2 \(Run B\)\./);
  assert.doesNotMatch(both, /stagecraft runs/, "not the CLI's words");
});

test('a run beside itself is identical and sameRun; two runs are not sameRun, whatever the verdict', async () => {
  const host = memoryHost({ cwd: workspace });
  const one = await startSkillRun(host, { bundle: 'summarize', input });
  const two = await startSkillRun(host, { bundle: 'summarize', input });

  const self = await compareRuns(host, one.runId, one.runId);
  assert.deepEqual([self.identical, self.sameRun], [true, true]);
  const pair = await compareRuns(host, one.runId, two.runId);
  assert.deepEqual([pair.identical, pair.sameRun], [true, false]);

  // the API's answer: the same, and what its route declares (a field the view lacks is a 500 there)
  const answer = routes.compareRuns.answer;
  assert.equal(answer.kind, 'json');
  const api = await compareOrBaseline(host, one.runId, one.runId);
  assert.equal('sameRun' in api && api.sameRun, true);
  assert.deepEqual(answer.schema.parse(api), api);
});

test("B with no completed run before it: its skill's latest runs are offered to pick A from, B itself never, at most RECENT", async () => {
  const host = memoryHost({ cwd: workspace });
  const first = await startSkillRun(host, { bundle: 'summarize', input });
  const later: string[] = [];
  for (let i = 0; i < RECENT + 1; i++) later.push((await startSkillRun(host, { bundle: 'summarize', input })).runId);
  const page = await comparePage(host, null, first.runId);
  assert.equal(page.view, null);
  // the newest first, each after B: on the right
  assert.deepEqual(
    page.suggestions.map((s) => [s.runId, s.label, s.isLater]),
    later
      .slice(-RECENT)
      .reverse()
      .map((id) => [id, 'another run of summarize (completed)', true]),
  );
  // with an A to show, the suggestions are B's own family as before (here: none)
  assert.deepEqual((await comparePage(host, null, later[0])).suggestions, []);
});

test("a comparison of a run with its replay or fork says how they are related, either way round, and whether the fork edited its point", async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const replay = await replayRun(host, parent.runId);
  const edited = await forkRun(host, parent.runId, { at: '__post__', set: [{ path: 'paragraphs', value: ['One.'] }] });
  const rerun = await forkRun(host, parent.runId, { at: '__post__/0' });
  const other = await startSkillRun(host, { bundle: 'summarize', input });
  const lineage = async (a: string, b: string) => (await comparePage(host, a, b)).lineage;
  assert.equal(await lineage(parent.runId, edited.runId), "B is a fork of A, from __post__ with the value there edited: the steps before that point are A's, answered from the recording; from there on B ran live.");
  assert.equal(await lineage(edited.runId, parent.runId), "A is a fork of B, from __post__ with the value there edited: the steps before that point are B's, answered from the recording; from there on A ran live.");
  assert.equal(await lineage(parent.runId, rerun.runId), "B is a fork of A, from __post__/0 (that step run again): the steps before that point are A's, answered from the recording; from there on B ran live.");
  assert.equal(await lineage(parent.runId, replay.replayRunId), "B is a replay of A: its model turns and tool outcomes are A's, answered from the recording; its stages and processor steps ran again.");
  // B alone: A is its parent, the last completed run before it — said as both
  const alone = await comparePage(host, null, edited.runId);
  assert.equal(alone.isBaseline, true);
  assert.match(alone.lineage ?? '', /^B is a fork of A, from __post__/);
  // runs not derived one from the other: nothing said
  assert.equal(await lineage(other.runId, edited.runId), null);
  assert.equal(await lineage(replay.replayRunId, edited.runId), null);
});

test('a rerun with another version than its parent says which version each ran (the cause of a divergence after a fix)', async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const fixed = path.join(workspace, 'summarize_fixed');
  cpSync(path.join(workspace, 'summarize'), fixed, { recursive: true });
  writeFileSync(path.join(fixed, 'sanitize.py'), readFileSync(path.join(fixed, 'sanitize.py'), 'utf8').replace('"[email]"', '"[e-mail]"'));
  const rerun = await forkRun(host, parent.runId, { at: '__post__/0', skillDir: fixed });
  const c = await compareRuns(host, parent.runId, rerun.runId);
  assert.notEqual(c.a.version, c.b.version);
  assert.equal(
    c.lineage,
    `B is a fork of A, from __post__/0 (that step run again): the steps before that point are A's, answered from the recording; from there on B ran live. B ran version ${c.b.version!.slice(0, 8)}; A ran ${c.a.version!.slice(0, 8)}.`,
  );
  // the same version: nothing more said
  const same = await forkRun(host, parent.runId, { at: '__post__/0', version: c.a.version! });
  assert.doesNotMatch((await compareRuns(host, parent.runId, same.runId)).lineage ?? '', /ran version/);
});
