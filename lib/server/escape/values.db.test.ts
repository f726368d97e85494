// A hostile author's huge values, through the CLI and the real sandbox, on Postgres and on the
// embedded store: `iterate` gathering 40 values of 15 MB used to fail with "Invalid string
// length", leave the run `running`, make the CLI call the store unreachable and repeat it all on
// every resume. Now the step fails at the cap (on_error applies), the run ends recorded, a resume
// has nothing to do, and a value the store cannot write is that run's failure, not the store's.
// The blob step may take its time (timeout_ms 600000): building and sending 15 MB took over the
// default 10 s on a machine at load 15, and the test is about the cap, not the clock.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, type OpenedStore } from '../../store';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { ev, makeRun } from '../../store/testing/fixtures';

let database: TestDatabase;
let root: string;
before(async () => {
  database = await createTestDatabase();
  root = mkdtempSync(path.join(tmpdir(), 'sc-values-'));
});
after(async () => {
  await database?.drop();
  rmSync(root, { recursive: true, force: true });
});

function hugeBundle(name: string, onError: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'skill.md'),
    `---
name: ${name}
entry: go
graph:
  go: []
output_schema: { type: object }
postprocessor:
  output_schema: { type: object }
  steps:
    - { type: node, module: ./big.mjs, function: list, into: items }
    - type: iterate
      over: items
      into: blobs
      on_error: ${onError}
      steps:
        - { type: node, module: ./big.mjs, function: blob, pure: true, timeout_ms: 600000 }
    - { type: node, module: ./big.mjs, function: done }
---
Go.
`,
  );
  writeFileSync(
    path.join(dir, 'big.mjs'),
    `export function list() { return Array.from({ length: 40 }, (_, i) => i); }
export function blob(v) { return { b: 'x'.repeat(15 * 1024 * 1024) + v.value }; }
export function done(v) { return { gathered: Array.isArray(v.blobs) ? v.blobs.length : null }; }
`,
  );
  writeFileSync(path.join(dir, 'model.yaml'), 'turns:\n  - finish: {}\n');
  return dir;
}

for (const [label, storeEnv] of [
  ['Postgres', () => ({ DATABASE_URL: database.url })],
  ['the embedded store', () => ({ STAGECRAFT_DATA_DIR: path.join(root, 'embedded') })],
] as const) {
  describe(`huge values, on ${label}`, () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/stagecraft.mjs', ...args], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, `data-${label.length}`), ...storeEnv() },
      });

    it('iterate gathering 40 × 15 MB: that step fails at the cap, the run ends recorded, resume has nothing to repeat', () => {
      const r = cli('run', hugeBundle(`gather_${label.length}`, 'fail'), '--json');
      const out = JSON.parse(r.stdout) as { runId: string; status: string; error: { code: string; message: string; step: number } };
      assert.equal(out.status, 'aborted', r.stderr);
      assert.equal(out.error.step, 1);
      assert.match(out.error.message, /iterate: the results of its first 2 of 40 elements hold more than 16\.0 MB of JSON/);
      assert.doesNotMatch(r.stderr + r.stdout, /store_write_failed|resume the run when the store is reachable|Invalid string length/);
      const runs = JSON.parse(cli('runs', '--json').stdout) as { runs: { runId: string; status: string }[] };
      assert.equal(runs.runs.find((x) => x.runId === out.runId)?.status, 'aborted');
      const resumed = cli('resume');
      assert.equal(resumed.status, 0, resumed.stderr);
      assert.match(resumed.stdout + resumed.stderr, /no interrupted runs/);
      const again = cli('resume', out.runId);
      assert.notEqual(again.status, 0);
      assert.match(again.stderr, /cannot be resumed: it is aborted/);
    });

    it('with on_error skip the run goes on past the step and completes', () => {
      const r = cli('run', hugeBundle(`gather_skip_${label.length}`, 'skip'), '--json');
      const out = JSON.parse(r.stdout) as { status: string; output: { gathered: unknown } };
      assert.equal(out.status, 'completed', r.stderr);
      assert.deepEqual(out.output.gathered, null, 'the iterate was skipped: nothing gathered');
    });
  });
}

describe('a value the store cannot write is refused as that value’s failure (store_value_unsupported), not as a store that is away', () => {
  for (const [label, open] of [
    ['Postgres', () => openStore({ databaseUrl: database.url })],
    ['the embedded store', () => openStore({ dataDir: path.join(root, 'refuse-db') })],
  ] as const) {
    it(label, async () => {
      const store: OpenedStore = await open();
      try {
        const run = makeRun();
        await store.createRun(run, { events: [ev(run.id, 1, 'run_started')] });
        // no JSON text for it: what a value past a runtime limit gives too, at a cost a test can pay
        const bad = ev(run.id, 2, 'step_completed', { output: { n: 10n as unknown as number } });
        await assert.rejects(store.commit(run.id, { events: [bad] }), (e: Error & { code?: string }) => {
          assert.equal(e.code, 'store_value_unsupported');
          assert.match(e.message, /cannot be written as JSON.*BigInt/);
          return true;
        });
        // nothing of it was written, and the store goes on recording the run
        assert.equal((await store.readEvents(run.id)).length, 1);
        assert.deepEqual(await store.commit(run.id, { events: [ev(run.id, 2, 'run_failed')], run: { status: 'failed' } }), { kind: 'committed' });
        assert.equal((await store.getRun(run.id))?.status, 'failed');
      } finally {
        await store.close();
      }
    });
  }
});
