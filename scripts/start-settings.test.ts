// `npm start` with a bad setting the app reads only when it drives a run (STAGECRAFT_MAX_RUNS=0,
// STAGECRAFT_WORKSPACE_MAX_BYTES=lots, STAGECRAFT_WORKERS=remote) started the app: /api/health said "ok",
// every POST /api/runs was a 400 `usage` blaming the caller for the server's setting, and the recorded
// runs were never resumed (the log's "start-up failed" was the only trace). Now it refuses before it
// builds or starts anything, naming every bad value.
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('npm start refuses bad run settings, naming each, and starts nothing', () => {
  const env = {
    ...process.env,
    PORT: '3249',
    STAGECRAFT_MAX_RUNS: '0',
    STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots',
    STAGECRAFT_WORKERS: 'remote',
    STAGECRAFT_HTTP_PRIVATE: 'yes',
    STAGECRAFT_PRICES: '{"models": ',
  };
  const r = spawnSync(process.execPath, ['scripts/start.mjs'], { encoding: 'utf8', env, timeout: 60_000, killSignal: 'SIGINT' });
  assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /^stagecraft: STAGECRAFT_MAX_RUNS="0": /m);
  assert.match(r.stderr, /^stagecraft: STAGECRAFT_WORKSPACE_MAX_BYTES="lots": /m);
  assert.match(r.stderr, /^stagecraft: STAGECRAFT_WORKERS=remote: it is one of in-process, external/m);
  assert.match(r.stderr, /^stagecraft: STAGECRAFT_HTTP_PRIVATE="yes": /m);
  assert.match(r.stderr, /^stagecraft: The price table in STAGECRAFT_PRICES is not JSON: .* Write \{"currency": "USD", "models": /m);
  assert.match(r.stderr, /not starting: fix or unset the settings above/);
  assert.doesNotMatch(r.stdout, /starting on|building/);
});

// PORT=abc was answered by `next start` in its own option's words, PORT=70000 by an unhandled RangeError with its
// stack, each after "starting on http://127.0.0.1:<port>" was printed
test('npm start refuses a PORT it cannot listen on, naming it', () => {
  for (const port of ['abc', '70000', '0', '0x10', '1e3']) {
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], { encoding: 'utf8', env: { ...process.env, PORT: port }, timeout: 60_000, killSignal: 'SIGINT' });
    assert.equal(r.status, 1, `${port}: ${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^stagecraft: PORT="${port}": give the app's port as a whole number from 1 to 65535 \\(default 3000\\)\\.$`, 'm'));
    assert.doesNotMatch(r.stdout, /starting on/);
    assert.doesNotMatch(r.stderr, /RangeError|at /);
  }
});
