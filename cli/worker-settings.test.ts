// A worker started with a bad setting that is read only when a run starts (STAGECRAFT_WORKSPACE_MAX_BYTES=lots,
// STAGECRAFT_HTTP_PRIVATE=DENY …) started, took queued runs' jobs and dropped each ("not driven"), leaving the
// runs queued with their jobs spent. Now it refuses to start, naming every bad setting, before it opens the store:
// here its DATABASE_URL names a port nothing listens on, so a worker that got as far as the store would say that.
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSettingsProblems } from '../lib/server/run-settings';

const UNREACHABLE = 'postgresql://postgres@127.0.0.1:1/none';

test('stagecraft worker with bad settings exits 2 naming each, before it opens the store', () => {
  const env = { ...process.env, DATABASE_URL: UNREACHABLE, STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots', STAGECRAFT_HTTP_PRIVATE: 'DENY', STAGECRAFT_MAX_WORKERS: '0', STAGECRAFT_SANDBOX: 'bogus' };
  const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'worker'], { encoding: 'utf8', env, timeout: 60_000 });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /STAGECRAFT_WORKSPACE_MAX_BYTES="lots": give a size in bytes/);
  assert.match(r.stderr, /STAGECRAFT_HTTP_PRIVATE="DENY": it is deny/);
  assert.match(r.stderr, /STAGECRAFT_MAX_WORKERS="0": give a whole number above 0/);
  assert.match(r.stderr, /STAGECRAFT_SANDBOX="bogus": use off, auto/);
  assert.doesNotMatch(r.stderr, /drives up to|127\.0\.0\.1:1|unreachable/i);
});

// The problems were followed by the worker's whole usage, as for a mistyped flag, though nothing was wrong
// with the command line; the second problem on also lacked the `stagecraft:` its first had.
test('bad settings are said alone, one a line, one or several; a wrong command line still gets the usage', () => {
  const worker = (env: Record<string, string>, args: string[] = []) =>
    spawnSync(process.execPath, ['bin/stagecraft.mjs', 'worker', ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: UNREACHABLE, ...env }, timeout: 60_000 });
  const several = worker({ STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots', STAGECRAFT_HTTP_PRIVATE: 'DENY' });
  assert.equal(several.status, 2, several.stderr);
  const lines = several.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 2, several.stderr);
  assert.match(lines[0], /^stagecraft: STAGECRAFT_WORKSPACE_MAX_BYTES="lots": give a size in bytes/);
  assert.match(lines[1], /^stagecraft: STAGECRAFT_HTTP_PRIVATE="DENY": it is deny/);
  const one = worker({ STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots' });
  assert.equal(one.status, 2, one.stderr);
  assert.match(one.stderr, /^stagecraft: STAGECRAFT_WORKSPACE_MAX_BYTES="lots": give a size in bytes[^\n]*\n$/);
  const flag = worker({ STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots' }, ['--bogus']);
  assert.equal(flag.status, 2, flag.stderr);
  assert.match(flag.stderr, /^stagecraft: Unknown option --bogus[^]*\n\nusage:\n {2}stagecraft worker /);
});

test('the settings checked at start: none for the defaults; the app adds its own', () => {
  assert.deepEqual(runSettingsProblems({}, 'worker'), []);
  assert.deepEqual(runSettingsProblems({}, 'app'), []);
  const bad = { STAGECRAFT_WORKSPACE_RETENTION: 'forever', STAGECRAFT_MODEL_TIMEOUT_MS: 'soon', STAGECRAFT_COMMIT_LANES: '0', STAGECRAFT_MAX_RUNS: '0', STAGECRAFT_WORKERS: 'remote' };
  const worker = runSettingsProblems(bad, 'worker');
  assert.equal(worker.length, 3, worker.join('\n'));
  const app = runSettingsProblems(bad, 'app');
  assert.equal(app.length, 5, app.join('\n'));
  for (const name of Object.keys(bad)) assert.ok(app.some((p) => p.includes(name)), name);
});
