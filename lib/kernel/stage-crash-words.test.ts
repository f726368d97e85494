// A user capability that raised after printing: its error is several lines (what it raised, its stack,
// "Last stderr:" and what it printed), and "Fix the capability's handler; the run stops here." came
// after the last of them — under `Last stderr:`, read as the capability's own output. The advice now
// ends the first line; the stack and the stderr follow it. A one-line error reads as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StageDispatcher, requireNoCrashedStage } from './dispatcher';
import { stage, testClock, testIds } from './testing';
import type { StageContext } from './stage-types';

const meta = { runId: 'r1', phase: 'draft', round: 1 };
const ctxFor = (s: { name: string }) => ({ runId: 'r1', phase: 'draft', round: 1, rung: 'post-model', stage: s.name, with: {} }) as StageContext;

async function crashMessage(raised: string): Promise<string> {
  const d = new StageDispatcher(
    async () => {
      throw new Error(raised);
    },
    testClock(),
    testIds(),
  );
  const results = await d.runPhase([stage('checker', 'post-model')], 'post-model', ctxFor, new Set(), meta);
  try {
    requireNoCrashedStage(results, 'draft');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('requireNoCrashedStage did not throw');
}

test("a several-line stage error: the advice ends its first line, its stack and last stderr follow", async () => {
  const message = await crashMessage('node function checker in caps.mjs raised TypeError: too long (at caps.mjs:3:30)\nTypeError: too long\n    at checker (caps.mjs:3:30)\nLast stderr:\nchecker: inspecting turn');
  assert.equal(
    message,
    'stage "checker" (capability checker) crashed on the post-model rung of phase draft, round 1: node function checker in caps.mjs raised TypeError: too long (at caps.mjs:3:30). ' +
      "Fix the capability's handler; the run stops here.\nTypeError: too long\n    at checker (caps.mjs:3:30)\nLast stderr:\nchecker: inspecting turn",
  );
});

test('a one-line stage error reads as before', async () => {
  assert.equal(
    await crashMessage('boom in handler'),
    `stage "checker" (capability checker) crashed on the post-model rung of phase draft, round 1: boom in handler. Fix the capability's handler; the run stops here.`,
  );
});
