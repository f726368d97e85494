// `stagecraft events RUN --follow` beside the app that holds the embedded store follows the run as
// `run DIR` follows one there (through-app.ts followRun): at each answer about the run, the log past
// what it printed. Each event is printed once, in order, the last ones (committed with the end) too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunEvent } from '../lib/kernel/ports';
import type { RunView } from '../lib/views';
import { untilEnded, type AppClient } from './through-app';
import { followInApp } from './follow-events';

type Logged = Omit<RunEvent, 'runId'>;
const event = (seq: number, type: string): Logged => ({ seq, type, at: seq, data: {} }) as Logged;

/** an app whose run goes through `steps`: each answer about the run commits the next step's events first */
function appOf(steps: { status: RunView['status']; adds: Logged[] }[]): AppClient {
  const log: Logged[] = [];
  let at = 0;
  const getRun = async (runId: string): Promise<RunView> => {
    const step = steps[Math.min(at++, steps.length - 1)];
    if (at <= steps.length) log.push(...step.adds);
    return { runId, status: step.status, drivenHere: true } as RunView;
  };
  return {
    url: 'http://127.0.0.1:1',
    events: async (_runId: string, after = 0) => log.filter((e) => e.seq > after),
    runEnded: (runId: string, seen?: (run: RunView) => Promise<void>) => untilEnded(getRun, runId, 1, seen),
  } as AppClient;
}

test('through the app, each event is printed once, in order, up to those committed with the end, and the end is returned', async () => {
  const app = appOf([
    { status: 'queued', adds: [] },
    {
      status: 'running',
      adds: [event(1, 'run_started'), event(2, 'run_admitted')],
    },
    { status: 'running', adds: [] },
    { status: 'running', adds: [event(3, 'phase_started')] },
    {
      status: 'failed',
      adds: [event(4, 'step_completed'), event(5, 'run_failed')],
    },
  ]);
  const printed: number[] = [];
  const end = await followInApp(app, 'run_x', (e) => printed.push(e.seq), {
    out: () => {},
    err: () => {},
    stdin: async () => '',
  });
  assert.deepEqual(printed, [1, 2, 3, 4, 5]);
  assert.deepEqual(end, { status: 'failed' });
});
