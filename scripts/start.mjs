#!/usr/bin/env node
// `npm start`: build the app if needed, then start it on PORT (default 3000).
// The store opens on the first request: DATABASE_URL if set, else the
// embedded database under STAGECRAFT_DATA_DIR (./.stagecraft); on start the
// example skills are loaded and interrupted runs are resumed.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
if (!existsSync('.next/BUILD_ID') || process.argv.includes('--build')) {
  console.log('stagecraft: building the app (first start only, ~1 min)…');
  const b = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const port = process.env.PORT ?? '3000';
const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
