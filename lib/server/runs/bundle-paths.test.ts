// A run's errors name the files of the bundle copy it executed from relative to it wherever a user
// sees them — as the page, the report and the CLI's text already did: the CLI's `run --json` and
// `GET /api/runs/<id>` (the summary's error, steps and traces), a fork point a replay cannot reach
// (fork_point_unknown, whose message carries the replay's error) and OTLP span statuses. Before,
// those carried the copy's absolute path (/…/bundles/<hash>/total.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deps, phase, plan, playModel, post } from '../../kernel/testing';
import { startRun } from '../../kernel/runner';
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
