// A command stopped before its new run's first event was written said `stagecraft resume ID` of a run
// no store held (fork while it read the parent, replay while it compiled the version): it now says
// that nothing was recorded. Once the store has told of an append to the run, it says how to resume.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sayHowToResumeOnStop, type StoppedRunJson } from './stop-words';

/** a store that tells of its appends, as PrismaStore does */
function storeHearing() {
  const fns = new Set<(runId: string, lastSeq: number) => void>();
  return {
    onAppend(fn: (runId: string, lastSeq: number) => void) {
      fns.add(fn);
      return () => void fns.delete(fn);
    },
    append: (runId: string) => fns.forEach((fn) => fn(runId, 1)),
    listening: () => fns.size,
  };
}

/** what the command says when SIGTERM comes (a listener of the test's own keeps the process alive) */
function stopped(setUp: (io: { err(l: string): void; out(l: string): void }, json: (s: StoppedRunJson) => unknown) => () => void): { err: string[]; out: unknown[] } {
  const err: string[] = [];
  const out: unknown[] = [];
  const keep = () => {};
  process.on('SIGTERM', keep);
  const unsay = setUp({ err: (l) => err.push(l), out: (l) => out.push(JSON.parse(l)) }, (s) => s);
  try {
    process.emit('SIGTERM');
  } finally {
    unsay();
    process.off('SIGTERM', keep);
  }
  return { err, out };
}

test('stopped before the run was recorded: nothing to resume, said on stderr and under --json', () => {
  const store = storeHearing();
  const said = stopped((io, json) => {
    store.append('run_other'); // another run's append is not this one's
    return sayHowToResumeOnStop('run_new', io, json, store);
  });
  assert.deepEqual(said.err, ['stagecraft: stopped by SIGTERM before run run_new was recorded: nothing of it was kept, so there is nothing to resume; run the command again.']);
  assert.deepEqual(said.out, [{ runId: 'run_new', status: 'not_recorded', stoppedBy: 'SIGTERM' }]);
  assert.equal(store.listening(), 0, 'the store is no longer listened to');
});

test('stopped once the run was recorded (or with no store to ask): how to resume and abort it', () => {
  const store = storeHearing();
  const recorded = stopped((io, json) => {
    const unsay = sayHowToResumeOnStop('run_new', io, json, store);
    store.append('run_new');
    return unsay;
  });
  assert.match(recorded.err[0], /^stagecraft: stopped by SIGTERM: run run_new stays as it was, its finished steps kept; take it up with `stagecraft resume run_new`/);
  assert.deepEqual(recorded.out, [{ runId: 'run_new', status: 'running', stoppedBy: 'SIGTERM', resume: 'stagecraft resume run_new', abort: 'stagecraft abort run_new' }]);
  const resumed = stopped((io, json) => sayHowToResumeOnStop('run_old', io, json));
  assert.match(resumed.err[0], /take it up with `stagecraft resume run_old`/);
  assert.equal(store.listening(), 0);
});
