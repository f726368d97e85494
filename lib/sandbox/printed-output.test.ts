// What a code call that returns a value printed goes back with the value (PreparedCall.printed): each
// stream's head and tail as a failed call's error carries them, with the same line for what was left
// out between; nothing at all when the call printed nothing, and never for a call that failed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { CodeCall, CodeSandbox, PreparedCall } from '../kernel/ports';
import { createCodeSandbox } from './index';
import { OUTPUT_HEAD_BYTES, OUTPUT_TAIL_BYTES } from './call-output';

const dir = mkdtempSync(path.join(tmpdir(), 'sc-printed-'));
const PY = path.join(dir, 'steps.py');
const JS = path.join(dir, 'steps.mjs');
writeFileSync(
  PY,
  `import sys
def loud(v):
    print("rows:", v["n"])
    print("careful", file=sys.stderr)
    return {"ok": True}
def quiet(v):
    return {"ok": True}
def flood(v):
    sys.stdout.write("H" * 5000 + "x" * 100000 + "T" * 5000)
    return {"ok": True}
def loud_then_raise(v):
    print("before the raise")
    raise ValueError("no")
`,
);
writeFileSync(
  JS,
  `export function loud(v) { console.log('rows:', v.n); console.error('careful'); return { ok: true }; }
export function quiet() { return { ok: true }; }
export function onlyErr() { process.stderr.write('just this'); return { ok: true }; }
`,
);
const sandbox: CodeSandbox = createCodeSandbox({ isolation: { kind: 'none', reason: 'the test asks for plain child processes' } });
after(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const callOf = (modulePath: string, exportName: string): CodeCall => ({
  language: modulePath.endsWith('.py') ? 'python' : 'node',
  modulePath,
  exportName,
  input: { n: 3 },
  timeoutMs: 10_000,
});

async function run(modulePath: string, exportName: string): Promise<PreparedCall> {
  const p = sandbox.prepare!(callOf(modulePath, exportName));
  assert.deepEqual(await p.start(), { ok: true });
  return p;
}

test('a python step that returned: what it printed on stdout and on stderr comes back with its value', async () => {
  assert.deepEqual((await run(PY, 'loud')).printed, { stdout: 'rows: 3\n', stderr: 'careful\n' });
});

test('a node step that returned: the same, and an empty stream is an empty string', async () => {
  assert.deepEqual((await run(JS, 'loud')).printed, { stdout: 'rows: 3\n', stderr: 'careful\n' });
  assert.deepEqual((await run(JS, 'onlyErr')).printed, { stdout: '', stderr: 'just this' });
});

test('a step that printed nothing comes back with nothing printed', async () => {
  assert.equal((await run(PY, 'quiet')).printed, undefined);
  assert.equal((await run(JS, 'quiet')).printed, undefined);
});

test("a step that printed much: its head and tail, the bytes left out between said on a line of their own (as its error's)", async () => {
  const out = (await run(PY, 'flood')).printed!.stdout;
  const left = 110000 - OUTPUT_HEAD_BYTES - OUTPUT_TAIL_BYTES;
  assert.equal(out, `${'H'.repeat(OUTPUT_HEAD_BYTES)}\n[… ${left} bytes of output left out …]\n${'T'.repeat(OUTPUT_TAIL_BYTES)}`);
});

test('a step that failed has nothing printed beside its error: the error carries it', async () => {
  const p = sandbox.prepare!(callOf(PY, 'loud_then_raise'));
  const e = (await p.start().then(() => assert.fail('it raised'), (err: unknown) => err)) as { details?: { stdoutTail?: string } };
  assert.equal(e.details?.stdoutTail, 'before the raise\n');
  assert.equal(p.printed, undefined);
});

// A module that prints as it is imported prints on the first call of a fresh worker only: the kernel
// sends a fused request that printed once more (processors.ts runFused), and one that prints nothing
// then printed at the import — so the second request must print nothing here.
const IMPORT_PY = path.join(dir, 'loud_import.py');
const IMPORT_JS = path.join(dir, 'loud-import.mjs');
writeFileSync(IMPORT_PY, `import warnings\nprint("loading the table")\nwarnings.warn("old api")\ndef one(v):\n    return {"one": True}\ndef two(v):\n    return {"two": True}\n`);
writeFileSync(IMPORT_JS, `console.log('loading the table');\nexport function one() { return { one: true }; }\nexport function two() { return { two: true }; }\n`);

for (const modulePath of [IMPORT_PY, IMPORT_JS]) {
  test(`a ${path.extname(modulePath)} module that prints as it is imported: its first fused request on a fresh worker prints that, the next prints nothing`, async () => {
    const fresh: CodeSandbox = createCodeSandbox({ isolation: { kind: 'none', reason: 'the test asks for plain child processes' } });
    try {
      const fused = (): CodeCall => ({ ...callOf(modulePath, 'one'), chain: [{ exportName: 'one', into: null }, { exportName: 'two', into: null }] });
      const first = fresh.prepare!(fused());
      assert.deepEqual(await first.start(), { outputs: [{ one: true }, { two: true }] });
      assert.match(first.printed?.stdout ?? '', /^loading the table\n$/);
      if (modulePath.endsWith('.py')) assert.match(first.printed?.stderr ?? '', /UserWarning: old api/);
      const second = fresh.prepare!(fused());
      assert.deepEqual(await second.start(), { outputs: [{ one: true }, { two: true }] });
      assert.equal(second.printed, undefined);
    } finally {
      await fresh.close();
    }
  });
}
