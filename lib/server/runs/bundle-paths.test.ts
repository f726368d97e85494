// A run's errors name the files of the bundle copy it executed from relative to it wherever a user
// sees them — as the page, the report and the CLI's text already did: the CLI's `run --json` and
// `GET /api/runs/<id>` (the summary's error, steps and traces), a fork point a replay cannot reach
// (fork_point_unknown, whose message carries the replay's error) and OTLP span statuses. Before,
// those carried the copy's absolute path (/…/bundles/<hash>/total.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deps, phase, plan, playModel, post } from '../../kernel/testing';
import { queueRun, resumeRun, startRun } from '../../kernel/runner';
import { EVENT } from '../../kernel/events';
import { RunFold } from '../../kernel/fold';
import { bundleRoots, bundleRootsOf } from '../../kernel/provenance';
import { stateView } from '../../kernel/inspect';
import { compareLogs } from '../../kernel/compare';
import type { StepSpec } from '../../kernel/plan';
import type { CodeSandbox } from '../../kernel/ports';
import { forkPointOf } from '../../kernel/fork-edits';
import { probeForkPoint } from '../../kernel/fork-probe';
import { ForkPointError } from '../../kernel/errors';
import { runSpans } from '../../telemetry/run-spans';
import { summarizeRun } from './run-summary';

const COPY = '/var/lib/stagecraft/bundles/ab12cd34';
const RAISED = `python function total in ${COPY}/total.py raised KeyError: 'count'\n  File "${COPY}/total.py", line 3, in total`;
const sandbox: CodeSandbox = {
  async call() {
    throw Object.assign(new Error(RAISED), { code: 'code_failed', traceback: `File "${COPY}/total.py", line 3` });
  },
  async close() {},
};
const total = { onError: 'fail', emptyValue: null, line: 1, index: 0, type: 'python', module: './total.py', modulePath: `${COPY}/total.py`, function: 'total', timeoutMs: 500, pure: false } as StepSpec;
const skill = () => plan({ bundleDir: COPY, phases: { main: phase('main') }, postprocessor: post([total]) });

async function failedRun() {
  const d = deps(playModel([{ finish: { counts: [1] } }]), { sandbox });
  const outcome = await startRun(skill(), d, { input: {}, skillText: '' });
  assert.notEqual(outcome.status, 'completed');
  assert.ok(JSON.stringify(outcome.error).includes(COPY), 'the kernel records the path as it met it');
  return { d, outcome, events: await d.store.readEvents(outcome.runId) };
}

test('run --json and GET /api/runs/<id>: the error, the failed step and the traces name bundle files relatively', async () => {
  const { d, outcome } = await failedRun();
  const summary = JSON.stringify(await summarizeRun(d.store, outcome));
  assert.ok(!summary.includes(COPY), summary);
  assert.match(summary, /raised KeyError: 'count'/);
  assert.match(summary, /in total\.py raised/);
});

test('fork_point_unknown: the replay error it says it stopped at names bundle files relatively', async () => {
  const { d, events, outcome } = await failedRun();
  const probe = probeForkPoint(skill(), d, { input: {}, parentRunId: outcome.runId, events, point: forkPointOf('__post__/1', {}) });
  await assert.rejects(probe, (e: unknown) => {
    assert.ok(e instanceof ForkPointError && e.code === 'fork_point_unknown', String(e));
    assert.match(e.message, /it stops first: .*python function total in total\.py raised/);
    assert.ok(!JSON.stringify({ message: e.message, details: e.details }).includes(COPY), e.message);
    return true;
  });
});

test('OTLP: span status messages name bundle files relatively', async () => {
  const { d, outcome, events } = await failedRun();
  const spans = runSpans((await d.store.getRun(outcome.runId))!, events, await d.store.readTraces(outcome.runId));
  const messages = spans.map((s) => s.status.message).filter(Boolean);
  assert.ok(messages.some((m) => /in total\.py raised/.test(m!)), JSON.stringify(messages));
  assert.ok(!messages.some((m) => m!.includes(COPY)), JSON.stringify(messages));
});

// A queued run is executed from the copy its admission names (a worker admits it from its own data
// dir, not the one that queued it): its start names the queuing side's copy, its run_admitted the
// copy the code ran from. Before, only starts and resumes were read, so such a run's error showed
// the admitted copy's absolute path.
const QUEUED_AT = '/srv/queuer/bundles/ab12cd34';
async function admittedRun() {
  const d = deps(playModel([{ finish: { counts: [1] } }]), { sandbox });
  const runId = await queueRun(plan({ bundleDir: QUEUED_AT, phases: { main: phase('main') }, postprocessor: post([total]) }), d, { input: {}, skillText: '' });
  const outcome = await resumeRun(runId, () => skill(), d);
  const events = await d.store.readEvents(runId);
  assert.ok(events.some((e) => e.type === EVENT.runAdmitted), 'the run was queued, then admitted');
  assert.ok(JSON.stringify(outcome.error).includes(COPY), 'the kernel records the path as it met it');
  return { d, outcome, events };
}

test('a queued run admitted from another copy: run --json, OTLP, compare and the run page name bundle files relatively', async () => {
  const { d, outcome, events } = await admittedRun();
  assert.deepEqual(bundleRootsOf(events), [QUEUED_AT, COPY]);
  const summary = JSON.stringify(await summarizeRun(d.store, outcome));
  assert.ok(!summary.includes(COPY), summary);
  assert.match(summary, /in total\.py raised/);
  const spans = runSpans((await d.store.getRun(outcome.runId))!, events, await d.store.readTraces(outcome.runId));
  const messages = spans.map((s) => s.status.message).filter(Boolean);
  assert.ok(messages.some((m) => /in total\.py raised/.test(m!)) && !messages.some((m) => m!.includes(COPY)), JSON.stringify(messages));
  const { events: other } = await failedRun();
  // compared with the same failure run plainly from that copy: the same error, not a divergence
  const compared = compareLogs(other, events);
  assert.deepEqual(compared.rows.map((r) => `${r.position} ${r.change}`), ['main/r1/model same', '__post__/0 same']);
  const fold = new RunFold(outcome.runId, events);
  assert.deepEqual(bundleRoots(fold), [QUEUED_AT, COPY]);
  const page = JSON.stringify(stateView(fold, fold.lastSeq).error);
  assert.match(page, /in total\.py raised/);
  assert.ok(!page.includes(COPY), page);
});
