// The scrubber's Visit fact names the visit's number under the phase, not the phase's name again;
// a processor chain's words say what its value is, at a failed step too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chainWords, visitWords } from './where-words';
import { RunFold } from '@/lib/kernel/fold';
import { stateView } from '@/lib/kernel/inspect';
import { base, richPlan, richRun } from '@/lib/kernel/testing-fold-scenario';
import { RunStateView } from '@/lib/views/inspector';

test("the Visit fact is the visit's number, never the phase's name said again", () => {
  assert.equal(visitWords({ phase: 'draft', visit: 'draft' }), '1');
  assert.equal(visitWords({ phase: 'work', visit: 'work#100' }), '100');
  assert.equal(visitWords({ phase: '__post__', visit: '__post__' }), '—', 'the postprocessor is not a numbered visit');
  assert.equal(visitWords({ phase: null, visit: null }), '—', 'before the first phase');
  // a phase whose name has a '#' of its own is still read from the end of the key
  assert.equal(visitWords({ phase: 'a#b', visit: 'a#b#3' }), '3');
});

test("at a failed step, the chain's words say the value is what the step was handed, not what it left", async () => {
  // __post__/0 adds `enriched`; __post__/1, a validate, fails: the run stops, the value is what /0 left
  const p = richPlan([
    { ...base, index: 0, type: 'node', module: './x.mjs', modulePath: '/x.mjs', function: 'enrich', timeoutMs: 1000, pure: false },
    { ...base, index: 1, type: 'validate', schema: { type: 'object', required: ['nope'] } },
  ]);
  const r = await richRun(p);
  assert.equal(r.outcome.status, 'aborted');
  const fold = new RunFold(r.outcome.runId, await r.store.readEvents(r.outcome.runId));
  const failedAt = fold.processors.find((s) => s.data.position === '__post__/1')!.seq;
  const after0 = stateView(fold, fold.processors.find((s) => s.data.position === '__post__/0')!.seq);
  for (const k of [failedAt, fold.lastSeq]) {
    const s = RunStateView.parse(stateView(fold, k));
    assert.equal(s.chain?.step, '__post__/1');
    assert.deepEqual(s.chain?.value, after0.chain?.value, `event ${k}: the value is what __post__/0 left`);
    assert.equal(chainWords(s.chain!), 'before __post__/1 (it failed): the value it was handed', `event ${k}`);
  }
  assert.equal(chainWords(after0.chain!), 'after __post__/0');
  // a step that failed and was skipped: what it was handed, unchanged
  const skipped = await richRun();
  const f2 = new RunFold(skipped.outcome.runId, await skipped.store.readEvents(skipped.outcome.runId));
  const s2 = stateView(f2, f2.processors.find((s) => s.data.position === '__post__/1')!.seq);
  assert.equal(chainWords(s2.chain!), 'after __post__/1, which failed and was skipped: the value it was handed, unchanged');
});
