// `npm test` left some 200 folders (~45 MB) in /tmp a run: data dirs, workspaces and scratch of tests
// whose own cleanup never ran. scripts/test.mjs now gives the run a temporary folder of its own
// (TMPDIR), open to all as /tmp is, and removes it when the run ends.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

test("the tests' temporary folders go in the run's own, removed when it ends", () => {
  // a run of its own, not a child of this one's runner (NODE_TEST_CONTEXT would make it report to this one)
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmpdir() };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['scripts/test.mjs', 'scripts/testing/tmpdir-probe.ts'], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const made = /PROBE-DIR (\S+)/.exec(r.stdout)?.[1];
  assert.ok(made, r.stdout);
  const run = path.dirname(made);
  assert.match(path.basename(run), /^sc-tests-/, `made under the run's own folder: ${made}`);
  assert.equal(path.dirname(run), path.resolve(tmpdir()));
  assert.equal(existsSync(run), false, `${run} is left after the run`);
});
