#!/usr/bin/env node
// `prisma generate` offline: the Prisma 7 CLI downloads its native schema engine
// before every command, and only needs the path to exist for `generate`, so it
// gets a stub (scripts/schema-engine-stub.sh). Writes lib/store/generated/prisma
// (gitignored). Runs as `postinstall`, so it must work on a fresh `npm ci`.
// Where the CLI is absent (`npm ci --omit=dev`) an already generated client is
// kept; without one, this fails loudly instead of leaving a broken install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
const generated = path.join(root, 'lib', 'store', 'generated', 'prisma', 'client.ts');

if (!existsSync(cli)) {
  if (existsSync(generated)) {
    console.warn('db:generate: the prisma CLI is not installed (dev dependency); keeping the generated client');
    process.exit(0);
  }
  console.error('db:generate: the prisma CLI is not installed and lib/store/generated/prisma is missing; install dev dependencies');
  process.exit(1);
}
const r = spawnSync(process.execPath, [cli, 'generate', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, 'scripts', 'schema-engine-stub.sh'),
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
process.exit(r.status ?? 1);
