// How a worker that died mid-call is said: by its signal when one was reported, by its exit code
// otherwise — and an exit code over 128 (bubblewrap's way of passing on the signal that killed the
// worker under it) says which signal it stands for, after the sentences it always had; a worker run
// without isolation (the sandbox off) exited with its own code, so nothing is added for it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCodeSandbox } from './index';
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

test('exit code 137: the bubblewrap note only for a worker that ran under bubblewrap', () => {
  const said = 'The node worker exited with code 137 while running node function crash in /b/c.mjs. User code must return a value, not exit the process.';
  const under = (isolation: CallContext['isolation']) => errorFor({ kind: 'exited', code: 137, signal: null, output: { stdout: '', stderr: 'bye\n' } }, { ...ctx, isolation }).message;
  assert.equal(under('none'), `${said}\nLast stderr:\nbye`);
  assert.equal(under('bwrap'), `${said} Code 137 is how a worker killed by SIGKILL (signal 9) exits under bubblewrap.\nLast stderr:\nbye`);
});

test('the sandbox off: a step that exits with code 137 is told so, with no word of bubblewrap', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-exit-137-'));
  const modulePath = path.join(dir, 'exit.mjs');
  writeFileSync(modulePath, 'export function leave() { process.exit(137); }\n');
  const sandbox = createCodeSandbox({ isolation: { kind: 'none', reason: 'the test asks for plain child processes' } });
  try {
    const e = await sandbox.call({ language: 'node', modulePath, exportName: 'leave', input: {}, timeoutMs: 10_000 }).then(
      () => assert.fail('the call should fail'),
      (error: Error) => error,
    );
    assert.match(e.message, /exited with code 137 while running node function leave/);
    assert.doesNotMatch(e.message, /bubblewrap/);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
