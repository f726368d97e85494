#!/usr/bin/env node
// `npm start`: build the app if needed, then start it on STAGECRAFT_HOST:PORT
// (default 127.0.0.1:3000). The store opens on start: DATABASE_URL if set,
// else the embedded database under STAGECRAFT_DATA_DIR (./.stagecraft); the
// example skills are loaded and interrupted runs are resumed.
//
// The app runs the code of the skills it stores: it listens on loopback
// unless STAGECRAFT_HOST says otherwise, and then only with STAGECRAFT_TOKEN
// set (every page and API call needs it). Without the token it refuses to start.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { importBuilt } from './built.mjs';

// compiled with the CLI (scripts/build-cli.mjs): no TypeScript loader on the way to the server
const { listenProblem, securitySettings, isLoopback, isolationFor, sandboxMode, unsandboxedListenProblem, appSettingsProblems, portProblem } = await importBuilt('start-checks');

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const host = process.env.STAGECRAFT_HOST || '127.0.0.1';
const port = process.env.PORT || '3000';
const loopback = isLoopback(host);
const problem = listenProblem(host, securitySettings(process.env));
if (problem) {
  console.error(`stagecraft: ${problem}`);
  process.exit(1);
}
// the settings the app reads only when it drives a run: a bad one would leave the app up, healthy to a
// monitor, answering every new run with a 400 and resuming none of the recorded ones (the server checks them
// again as it starts, for `next start` run directly: lib/server/app/start-settings.ts)
const settingProblems = [portProblem(process.env.PORT), ...(await appSettingsProblems(process.env))].filter(Boolean);
if (settingProblems.length > 0) {
  for (const p of settingProblems) console.error(`stagecraft: ${p}`);
  console.error('stagecraft: not starting: fix or unset the settings above (README: Configuration).');
  process.exit(1);
}
// the code the app stores runs in a sandbox, or the app stays on this machine
let isolation;
try {
  // the verdict is kept in the data dir: the server's own check then finds it there
  isolation = isolationFor(sandboxMode(process.env), { cacheDir: path.resolve(process.env.STAGECRAFT_DATA_DIR || '.stagecraft') });
} catch (e) {
  console.error(`stagecraft: ${e.message}`);
  process.exit(1);
}
const unsandboxed = loopback ? null : unsandboxedListenProblem(host, isolation);
if (unsandboxed) {
  console.error(`stagecraft: ${unsandboxed}`);
  process.exit(1);
}
if (!existsSync('.next/BUILD_ID') || process.argv.includes('--build')) {
  console.log('stagecraft: building the app (first start only, ~1 min)…');
  const b = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
console.log(`stagecraft: starting on http://${host.includes(':') ? `[${host}]` : host}:${port}${loopback ? '' : ' (token required)'}`);
const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port, '-H', host], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
