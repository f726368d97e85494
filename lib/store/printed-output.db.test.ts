// What a code step printed, on the real Postgres store: a run of real node and python steps (the code
// sandbox) keeps each step's `stdout` / `stderr` on its record as written (the text the kernel built
// while the step ran: wire.ts), read back as recorded; a step that printed nothing has neither.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { StepSpec } from '../kernel/plan';
import { startRun } from '../kernel/runner';
import { deps, plan, playModel, post } from '../kernel/testing';
import { EVENT } from '../kernel/events';
import { createCodeSandbox } from '../sandbox';
import { openStore, type OpenedStore } from './open-store';
import { createTestDatabase, type TestDatabase } from './testing/pg-test-db';

const dir = mkdtempSync(path.join(tmpdir(), 'sc-printed-db-'));
writeFileSync(path.join(dir, 'steps.mjs'), "export function loud() { console.log('node says hi'); return { a: 1 }; }\nexport function quiet() { return { b: 2 }; }\n");
writeFileSync(
  path.join(dir, 'steps.py'),
  'import sys\ndef loud(v):\n    print("python says", len(v))\n    print("and warns", file=sys.stderr)\n    return {"c": 3}\n' +
    'def nul(v):\n    print("a\\0b")\n    return {"d": 4}\n' +
    'def nul_fails(v):\n    print("c\\0d", file=sys.stderr)\n    raise ValueError("no")\n' +
    'def nul_raises(v):\n    raise ValueError("e\\0f")\n' +
    'def nul_value(v):\n    return {"s": "g\\0h"}\n',
);
const sandbox = createCodeSandbox({ isolation: { kind: 'none', reason: 'the test asks for plain child processes' } });
let database: TestDatabase | null = null;
let store: OpenedStore | null = null;
after(async () => {
  await sandbox.close();
  await store?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const step = (index: number, type: 'node' | 'python', fn: string): StepSpec =>
  ({ onError: 'fail', emptyValue: null, line: 1, index, type, modulePath: path.join(dir, type === 'node' ? 'steps.mjs' : 'steps.py'), module: './x', function: fn, timeoutMs: 10_000, pure: false }) as StepSpec;

test("a code step's printed output is on its record in Postgres; a quiet step's record has none", async () => {
  database = await createTestDatabase();
  store = await openStore({ databaseUrl: database.url });
  const out = await startRun(plan({ postprocessor: post([step(0, 'node', 'loud'), step(1, 'python', 'loud'), step(2, 'node', 'quiet')]) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '' });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const steps = (await store.readEvents(out.runId)).filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor').map((e) => e.data);
  assert.deepEqual(
    steps.map((d) => [d.position, d.stdout, d.stderr]),
    [
      ['__post__/0', 'node says hi\n', undefined],
      ['__post__/1', 'python says 1\n', 'and warns\n'],
      ['__post__/2', undefined, undefined],
    ],
  );
  assert.ok(!('stdout' in steps[2]) && !('stderr' in steps[2]));
});

test('a NUL the step printed (which Postgres refuses in JSON) is recorded as \\x00: the step and its run do not fail on it', async () => {
  assert.ok(store, 'the store of the test before');
  const out = await startRun(plan({ postprocessor: post([step(0, 'python', 'nul')]) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '', runId: 'nul_run' });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const [d] = (await store!.readEvents(out.runId)).filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor').map((e) => e.data);
  assert.equal(d.stdout, 'a\\x00b\n');
});

test("a NUL in a failed step's stderr: the run is recorded aborted, the NUL in its error's stderr as \\x00", async () => {
  assert.ok(store, 'the store of the test before');
  const out = await startRun(plan({ postprocessor: post([step(0, 'python', 'nul_fails')]) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '', runId: 'nul_fail_run' });
  assert.equal(out.status, 'aborted', JSON.stringify(out.error));
  assert.equal((await store!.getRun(out.runId))?.status, 'aborted');
  const [d] = (await store!.readEvents(out.runId)).filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor').map((e) => e.data);
  assert.equal((d.output as { error: { stderrTail: string } }).error.stderrTail, 'c\\x00d\n');
});

test('a NUL in what a step raised: the run is recorded aborted, not refused by the store', async () => {
  assert.ok(store, 'the store of the test before');
  const out = await startRun(plan({ postprocessor: post([step(0, 'python', 'nul_raises')]) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '', runId: 'nul_raise_run' });
  assert.equal(out.status, 'aborted', JSON.stringify(out.error));
  assert.equal((await store!.getRun(out.runId))?.status, 'aborted');
});

test('a NUL in the value a step returned: the run completes with it, read back as returned', async () => {
  assert.ok(store, 'the store of the test before');
  const out = await startRun(plan({ postprocessor: post([step(0, 'python', 'nul_value')]) }), deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '', runId: 'nul_value_run' });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.equal((await store!.getRun(out.runId))?.status, 'completed');
});
