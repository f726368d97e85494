#!/usr/bin/env node
// The app as the browser tests see it: the production build, on 127.0.0.1,
// with a fresh embedded database (deleted when the server stops) and no model
// endpoint configured (and no token, unless E2E_SERVE_TOKEN gives one).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = process.argv[2] ?? '3100';
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-e2e-'));
// STAGECRAFT_CHECK_ANSWERS: the browser checks every API answer against its view in this build too
const env = { ...process.env, STAGECRAFT_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1', STAGECRAFT_CHECK_ANSWERS: '1' };
for (const k of ['DATABASE_URL', 'STAGECRAFT_MODEL_BASE_URL', 'STAGECRAFT_MODEL', 'STAGECRAFT_TOKEN', 'STAGECRAFT_HOST']) delete env[k];
// a spec that needs a signed-in app starts its own server with E2E_SERVE_TOKEN (e2e/inspector-list.spec.ts)
if (process.env.E2E_SERVE_TOKEN) env.STAGECRAFT_TOKEN = process.env.E2E_SERVE_TOKEN;
// …and one that needs a model endpoint, with E2E_SERVE_MODEL_BASE_URL (e2e/tokens-not-reported.spec.ts)
if (process.env.E2E_SERVE_MODEL_BASE_URL) env.STAGECRAFT_MODEL_BASE_URL = process.env.E2E_SERVE_MODEL_BASE_URL;
const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port, '-H', '127.0.0.1'], { stdio: 'inherit', env });
const stop = (sig) => {
  child.kill(sig);
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(sig));
// a Playwright killed outright cannot stop its web server: an orphaned one stops itself and frees the port
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM');
}, 1000).unref();
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
