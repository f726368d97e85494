// How a worker that died mid-call is said: by its signal when one was reported, by its exit code
// otherwise — and an exit code over 128 (bubblewrap's way of passing on the signal that killed the
// worker under it) says which signal it stands for, after the sentences it always had.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorFor, type CallContext } from './outcomes';

const ctx: CallContext = { language: 'node', modulePath: '/b/c.mjs', exportName: 'crash', timeoutMs: 1000, memoryLimitMb: 512 };
const output = { stdout: '', stderr: '' };
const exited = (code: number | null, signal: NodeJS.Signals | null) => errorFor({ kind: 'exited', code, signal, output }, ctx);

test('a worker that died mid-call: its signal, or its exit code — over 128 with the signal it stands for', () => {
  const cases: [code: number | null, signal: NodeJS.Signals | null, message: string][] = [
    [null, 'SIGKILL', 'The node worker was killed by SIGKILL while running node function crash in /b/c.mjs. User code must return a value, not exit the process.'],
    [3, null, 'The node worker exited with code 3 while running node function crash in /b/c.mjs. User code must return a value, not exit the process.'],
    [
      137,
      null,
      'The node worker exited with code 137 while running node function crash in /b/c.mjs. User code must return a value, not exit the process. Code 137 is how a worker killed by SIGKILL (signal 9) exits under bubblewrap.',
    ],
    [143, null, 'The node worker exited with code 143 while running node function crash in /b/c.mjs. User code must return a value, not exit the process. Code 143 is how a worker killed by SIGTERM (signal 15) exits under bubblewrap.'],
    [255, null, 'The node worker exited with code 255 while running node function crash in /b/c.mjs. User code must return a value, not exit the process.'],
  ];
  for (const [code, signal, message] of cases) {
    const e = exited(code, signal);
    assert.equal(e.message, message);
    assert.deepEqual([e.code, e.details?.exitCode, e.details?.signal], ['code_failed', code, signal], 'the details as they were');
  }
});
