// The run page's reading of a timeline, on the kernel's own timeline of a run that uses every rule
// (a refused stage, a denied call, a step that took an on_error branch): every item by id in the
// order it happened; next failure walks the view's failures and wraps; the failed-only filter keeps
// the failures and what holds them; links and fork points as the studio and the fork route read them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunFold } from '@/lib/kernel/fold';
import { buildTimeline } from '@/lib/kernel/timeline';
import { richRun } from '@/lib/kernel/testing-fold-scenario';
import { RunTimelineView } from '@/lib/views';
import { costText, eventOf, titleParts, failureScope, forkPointOf, indexTimeline, itemTitle, selectedInScope, countParts, countText, nestedText, reusedCounts, nextFailure, reusedNote, runUsageText, studioHref, timelinePositions, totalUsageText, usageText, recordingNote, recordingResult } from './timeline-index';

async function timeline(): Promise<RunTimelineView> {
  const r = await richRun();
  return RunTimelineView.parse(buildTimeline(new RunFold(r.outcome.runId, await r.store.readEvents(r.outcome.runId))));
}

test('every item of the timeline is indexed once, in the order it happened, with its label', async () => {
  const t = await timeline();
  const index = indexTimeline(t);
  const r1 = t.visits[0].rounds[0];
  const ids = [...index.keys()].filter((id) => id.startsWith(`${r1.id}/`));
  // prompt-assembly, the turn, post-model, pre-tool, the calls, post-tool, finalize
  const kinds = ids.map((id) => index.get(id)!.kind);
  assert.equal(kinds.indexOf('model') > -1, true);
  assert.ok(ids.indexOf(r1.model!.id) < ids.indexOf(r1.tools[0].id), 'the turn before its calls');
  const preTool = r1.lanes.find((l) => l.rung === 'pre-tool')!.traces[0];
  const postTool = r1.lanes.find((l) => l.rung === 'post-tool')!.traces[0];
  assert.ok(ids.indexOf(preTool.id) < ids.indexOf(r1.tools[0].id) && ids.indexOf(r1.tools[0].id) < ids.indexOf(postTool.id), 'calls between pre-tool and post-tool');
  assert.equal(index.get('gather/r1/pre-tool/sneaky')?.label, 'pre-tool sneaky/sneaky refused');
  for (const f of t.failures) assert.ok(index.has(f), `failure ${f} is indexed`);
  const steps = [...index.values()].filter((e) => e.kind === 'step');
  assert.ok(steps.length > 0);
  for (const s of steps) assert.equal(s.label, `${s.step.position} ${s.step.type} ${s.step.status}`);
});

test("Details' title names a stage once where its capability and stage share the name; other items by their label", async () => {
  const index = indexTimeline(await timeline());
  const sneaky = index.get('gather/r1/pre-tool/sneaky')!;
  assert.equal(sneaky.label, 'pre-tool sneaky/sneaky refused', 'the accessible name is unchanged');
  assert.equal(itemTitle(sneaky), 'pre-tool sneaky refused');
  const step = [...index.values()].find((e) => e.kind === 'step')!;
  assert.equal(itemTitle(step), step.label);
});

test("Details' title says an item's status once: where the title ends with it, the badge takes its place", async () => {
  const index = indexTimeline(await timeline());
  const sneaky = index.get('gather/r1/pre-tool/sneaky')!;
  assert.deepEqual(titleParts(sneaky), { name: 'pre-tool sneaky', isStatusLast: true });
  for (const e of index.values()) {
    const { name, isStatusLast } = titleParts(e);
    // drawn as name, then the badge (or the badge, then the name): the status word shows once
    const drawn = isStatusLast ? `${name} ${e.status}` : `${e.status} ${name}`;
    assert.equal(drawn.split(' ').filter((w) => w === e.status).length, 1, `${e.id}: "${drawn}"`);
    if (isStatusLast) assert.equal(`${name} ${e.status}`, itemTitle(e), 'the text reads as the title did');
  }
});

test('under Failed only, a selection the filter hides is replaced: by what the page opened on, else the first failure', () => {
  const scope = new Set(['v#1', 'v#1/r1', 'v#1/r1/tool/0', 'v#1/r2', 'v#1/r2/tool/1']);
  const failures = ['v#1/r1/tool/0', 'v#1/r2/tool/1'];
  assert.equal(selectedInScope('v#1/r1/pre-tool/guard', null, 'v#1/r2/tool/1', failures), 'v#1/r1/pre-tool/guard', 'no filter: kept');
  assert.equal(selectedInScope('v#1/r1/tool/0', scope, 'v#1/r2/tool/1', failures), 'v#1/r1/tool/0', 'a failure: kept');
  assert.equal(selectedInScope('v#1/r1/pre-tool/guard', scope, 'v#1/r2/tool/1', failures), 'v#1/r2/tool/1', 'hidden: what the page opened on');
  assert.equal(selectedInScope('v#1/r1/pre-tool/guard', scope, 'v#1/r1/pre-tool/guard', failures), 'v#1/r1/tool/0', 'that hidden too: the first failure');
  assert.equal(selectedInScope('v#1/r1/pre-tool/guard', scope, null, []), null);
  assert.equal(selectedInScope('run', scope, 'run', []), 'run', "the run's own failure stays");
});

test("the scrubber's event of an item: the event that recorded it; a denied call's, the guard's that denied it", async () => {
  const index = indexTimeline(await timeline());
  const denied = [...index.values()].find((e) => e.kind === 'tool' && e.status === 'denied');
  assert.ok(denied && denied.kind === 'tool' && denied.seq === null, 'a denied call was never recorded');
  const guard = [...index.values()].find((e) => e.kind === 'trace' && e.trace.rung === 'pre-tool' && e.round === denied.round && e.trace.stage === denied.tool.deniedBy?.stage)!;
  assert.equal(eventOf(denied), guard.seq);
  for (const e of index.values()) if (e.seq !== null) assert.equal(eventOf(e), e.seq);
  assert.equal(eventOf(undefined), null);
});

test('next failure walks the failures in run order and wraps round; none when there are none', () => {
  assert.equal(nextFailure(['a', 'b', 'c'], null), 'a');
  assert.equal(nextFailure(['a', 'b', 'c'], 'a'), 'b');
  assert.equal(nextFailure(['a', 'b', 'c'], 'c'), 'a');
  assert.equal(nextFailure(['a', 'b', 'c'], 'not-a-failure'), 'a');
  assert.equal(nextFailure([], 'a'), null);
});

test('the failed-only filter keeps each failure with its round, visit or chain, and nothing else', async () => {
  const t = await timeline();
  const index = indexTimeline(t);
  const scope = failureScope(index, t.failures);
  for (const f of t.failures) {
    const e = index.get(f)!;
    assert.ok(scope.has(f));
    if (e.visit) assert.ok(scope.has(e.visit));
    if (e.round) assert.ok(scope.has(e.round));
    if (e.kind === 'step') assert.ok(scope.has(e.chain));
  }
  const okTrace = [...index.values()].find((e) => e.kind === 'trace' && e.status === 'ok')!;
  assert.equal(scope.has(okTrace.id), false);
});

test('the studio link names the version and the line; a code error also its file', () => {
  assert.equal(studioHref('tally', 'ab12', { line: 30 }), '/skills/tally?version=ab12&line=30');
  assert.equal(studioHref('tally', 'ab12', { file: 'total.py', line: 3 }), '/skills/tally?version=ab12&file=total.py&line=3');
  assert.equal(studioHref('my skill', null), '/skills/my%20skill');
});

test('fork points: input, phases, turns, each step and its input; a failed step forks from its input, a skipped stage not at all', async () => {
  const t = await timeline();
  const positions = timelinePositions(t);
  assert.equal(positions[0], 'input');
  assert.ok(positions.includes(t.visits[0].phase));
  assert.ok(positions.includes(t.visits[0].rounds[0].model!.id));
  const index = indexTimeline(t);
  for (const e of index.values()) {
    const at = forkPointOf(e);
    if (e.kind === 'trace' && e.seq === null) assert.equal(at, null);
    else if (e.kind === 'step' && e.step.status === 'failed') assert.equal(at, `${e.id}/input`);
    else assert.equal(at, e.id);
  }
});

test('usage reads as tokens, latency and cost', () => {
  assert.equal(usageText({ inputTokens: 1204, outputTokens: 88, latencyMs: 1234, cost: null }, null), '1,204 → 88\u00a0tok · 1.2\u00a0s');
  assert.equal(usageText({ inputTokens: 0, outputTokens: 0, latencyMs: 12, cost: 0.5 }, 'EUR'), '12\u00a0ms · 0.50\u00a0EUR');
  assert.equal(costText(0.0031, 'USD'), '0.0031\u00a0USD');
});

test("the timeline header's latency says what it is: the model's, over the whole run", () => {
  assert.equal(totalUsageText({ inputTokens: 1204, outputTokens: 88, latencyMs: 1234, cost: null }, null), '1,204 → 88\u00a0tok · 1.2\u00a0s model latency in total');
  assert.equal(totalUsageText({ inputTokens: 0, outputTokens: 0, latencyMs: 12, cost: 0.5 }, 'EUR'), 'no model tokens used · 12\u00a0ms model latency in total · 0.50\u00a0EUR');
});

test('usage says how many of the turns it counts were reused from a recording', () => {
  const fork = { inputTokens: 3300, outputTokens: 30, latencyMs: 700, cost: null, reused: 2 };
  assert.equal(runUsageText(fork, null), '3,300 → 30\u00a0tok · 700\u00a0ms · incl. 2 turns reused from the recording');
  assert.equal(totalUsageText(fork, null), '3,300 → 30\u00a0tok · 700\u00a0ms model latency in total · incl. 2 turns reused from the recording');
  // every turn reused (a replay): they took no time here, so no latency figure
  assert.equal(runUsageText({ inputTokens: 900, outputTokens: 9, latencyMs: 0, cost: null, reused: 3 }, null), '900 → 9\u00a0tok · incl. 3 turns reused from the recording');
  assert.equal(usageText({ inputTokens: 0, outputTokens: 0, latencyMs: 0, cost: null, reused: 1 }, null), 'incl. 1 turn reused from the recording');
});
test('the model rounds figure says how many of its turns were answered from a recording, not called', () => {
  assert.equal(countText(7, 5), '7 (5 reused from the recording)');
  assert.equal(countText(3, 3), '3 (all 3 reused from the recording)');
  assert.equal(countText(1, 1), '1 (1 reused from the recording)');
  // a run that called the model for every turn: the bare count, as before
  assert.equal(countText(4, 0), '4');
  assert.equal(countText(0, 0), '0');
});

test('the Tool calls card says how many calls were reused from the recording as Model rounds does', () => {
  assert.equal(reusedNote(2, 2), 'all 2 reused from the recording');
  assert.equal(reusedNote(3, 1), '1 reused from the recording');
  assert.equal(reusedNote(1, 1), '1 reused from the recording');
  // none reused: no note, the card says its statuses alone as before
  assert.equal(reusedNote(2, 0), null);
  assert.equal(reusedNote(0, 0), null);
});

test('every count card says what was reused in the same words, its statuses dim after the note', () => {
  // Tool calls, Stages and Processor steps of a replay alike
  assert.deepEqual(countParts(2, 2, '2 ok'), { text: '2 (all 2 reused from the recording', dim: '; 2 ok', close: ')' });
  assert.equal(countText(4, 4, '3 ok, 1 skipped'), '4 (all 4 reused from the recording; 3 ok, 1 skipped)');
  assert.equal(countText(5, 2, '5 ok'), '5 (2 reused from the recording; 5 ok)');
  // never more reused than counted
  assert.equal(countText(2, 9, '2 ok'), '2 (all 2 reused from the recording; 2 ok)');
  // a run that reused nothing keeps its words: the statuses alone, dim, or the bare count
  assert.deepEqual(countParts(3, 0, '2 ok, 1 failed'), { text: '3', dim: ' (2 ok, 1 failed)', close: '' });
  assert.deepEqual(countParts(0, 0, ''), { text: '0', dim: '', close: '' });
});

test("the four count cards read what was reused from one source: the report's counts, else the usage's model turns", () => {
  const usage = { inputTokens: 900, outputTokens: 9, latencyMs: 0, cost: null, reused: 3 };
  // a report that counts them: all four from it (the usage's own count is not mixed in)
  const counts = { model: 7, tool: 2, stage: 14, processor: 2 };
  assert.deepEqual(reusedCounts({ reused: counts }, usage), counts);
  assert.deepEqual(reusedCounts({ reused: { model: 0, tool: 0, stage: 0, processor: 0 } }, usage), { model: 0, tool: 0, stage: 0, processor: 0 });
  // a report recorded before it counted them: the model turns the usage counts, the rest unsaid
  assert.deepEqual(reusedCounts({}, usage), { model: 3, tool: 0, stage: 0, processor: 0 });
  assert.deepEqual(reusedCounts({}, { reused: undefined }), { model: 0, tool: 0, stage: 0, processor: 0 });
  // as the cards say them
  const old = reusedCounts({}, usage);
  assert.deepEqual([countText(3, old.model), countText(2, old.tool, '2 ok')], ['3 (all 3 reused from the recording)', '2 (2 ok)']);
});

test("the run report's usage says plainly when no model tokens were used, not a bare latency", () => {
  assert.equal(runUsageText({ inputTokens: 0, outputTokens: 0, latencyMs: 12, cost: null }, null), 'no model tokens used · 12\u00a0ms');
  assert.equal(runUsageText({ inputTokens: 0, outputTokens: 0, latencyMs: 12, cost: 0 }, 'EUR'), 'no model tokens used · 12\u00a0ms · 0.00\u00a0EUR');
  assert.equal(runUsageText({ inputTokens: 10, outputTokens: 2, latencyMs: 12, cost: null }, null), '10 → 2\u00a0tok · 12\u00a0ms');
});

test("an iterate's nested steps: the count, then each kind that did not go ok (a skipped inner iterate too), never '0 failed'", () => {
  assert.equal(nestedText({ steps: 6, failed: 1, skipped: 1, empty: 0 }), '6\u00a0nested steps (1 failed, 1 skipped)');
  assert.equal(nestedText({ steps: 4, failed: 0, skipped: 0, empty: 2 }), '4\u00a0nested steps (2 empty)');
  assert.equal(nestedText({ steps: 4, failed: 0, skipped: 0, empty: 0 }), '4\u00a0nested steps, all ok');
  assert.equal(nestedText({ steps: 1, failed: 0, skipped: 0, empty: 0 }), '1\u00a0nested step, all ok');
  assert.equal(nestedText({ steps: 0, failed: 0, skipped: 0, empty: 0 }), 'no nested steps');
});

test("a replay's or fork's card and Details say what the recording answered, and that it was not run here", () => {
  assert.equal(recordingNote(null), '');
  assert.equal(recordingNote({ runId: 'run_a', seq: 9, edited: false }), ' · reused from the recording');
  assert.equal(recordingNote({ runId: 'run_a', seq: 10, edited: true }), ' · edited at the fork point');
  assert.equal(recordingResult({ runId: 'run_a', seq: 9, edited: false }), 'not run here: reused from the recording (run run_a, event 9)');
  assert.equal(recordingResult({ runId: 'run_a', seq: 10, edited: true }), "not run: the fork's edited value, in place of the one recorded (run run_a, event 10)");
});

test("turns whose endpoint did not report their tokens are said so, never as 'no model tokens used'; the cost is unknown", () => {
  const mixed = { inputTokens: 1204, outputTokens: 88, latencyMs: 1234, cost: null, reused: 0, tokensNotReported: { turns: 2, of: 3, reportedCost: 0.0031 } };
  assert.equal(runUsageText(mixed, 'USD'), '1,204 → 88\u00a0tok from 1 reported turn · tokens not reported by the model endpoint for 2 of 3 turns · 1.2\u00a0s · at least 0.0031\u00a0USD');
  assert.equal(totalUsageText(mixed, null), '1,204 → 88\u00a0tok from 1 reported turn · tokens not reported by the model endpoint for 2 of 3 turns · 1.2\u00a0s model latency in total');
  const none = { inputTokens: 0, outputTokens: 0, latencyMs: 12, cost: null, reused: 0, tokensNotReported: { turns: 3, of: 3, reportedCost: 0 } };
  assert.equal(runUsageText(none, 'EUR'), 'tokens not reported by the model endpoint for all 3 turns · 12\u00a0ms · cost unknown');
  assert.equal(totalUsageText(none, null), 'tokens not reported by the model endpoint for all 3 turns · 12\u00a0ms model latency in total');
  // a round: its one turn
  assert.equal(usageText({ ...none, tokensNotReported: { turns: 1, of: 1, reportedCost: null } }, null), 'tokens not reported by the model endpoint · 12\u00a0ms');
  // a run that made no model call, or whose turns all reported 0, reads as before
  assert.equal(runUsageText({ inputTokens: 0, outputTokens: 0, latencyMs: 0, cost: null, reused: 0 }, null), 'no model tokens used · 0\u00a0ms');
});
