// A run followed through the app (run DIR, fork, resume RUN beside `npm start`) ends the command when
// it ends — and when the app left it running without driving it, the command says so instead of
// following it forever (untilEnded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunLeftByAppError } from '../lib/kernel/errors';
import type { RunView } from '../lib/views';
import { untilEnded } from './through-app';

/** a getRun answering `views` in turn (the last again once they ran out), counting the calls */
function answering(views: Partial<RunView>[]) {
  let calls = 0;
  const getRun = async (runId: string): Promise<RunView> => ({ runId, ...views[Math.min(calls++, views.length - 1)] }) as RunView;
  return { getRun, calls: () => calls };
}

test('a run followed through the app is returned once it ended, however long the app drove it or held it queued', async () => {
  const app = answering([{ status: 'queued' }, { status: 'running', drivenHere: true }, { status: 'running', drivenHere: true }, { status: 'completed' }]);
  assert.equal((await untilEnded(app.getRun, 'run_a', 1)).status, 'completed');
  assert.equal(app.calls(), 4);
});

test('a run the app recorded as running but no longer drives ends the following with RunLeftByAppError, saying how to go on', async () => {
  const app = answering([{ status: 'running', drivenHere: true }, { status: 'running', drivenHere: false }]);
  await assert.rejects(untilEnded(app.getRun, 'run_b', 1), (e: unknown) => {
    assert.ok(e instanceof RunLeftByAppError);
    assert.equal(e.code, 'run_left_by_app');
    assert.equal(e.message, "Run run_b is still recorded as running, but the app stopped driving it without ending it (the app's log says why). To go on with it: stagecraft resume run_b.");
    return true;
  });
  assert.equal(app.calls(), 6, 'one poll driven, then five in a row undriven');
});

test('a moment undriven is not a left run: the count starts again when the app drives it (a claim between two drives)', async () => {
  const undriven = { status: 'running', drivenHere: false } as const;
  const driven = { status: 'running', drivenHere: true } as const;
  const app = answering([undriven, undriven, undriven, undriven, driven, undriven, undriven, { status: 'failed' }]);
  assert.equal((await untilEnded(app.getRun, 'run_c', 1)).status, 'failed');
});
