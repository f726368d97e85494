#!/usr/bin/env node
// Runs the test suite with node's own test runner (+ tsx for TypeScript).
//   node scripts/test.mjs            every *.test.ts (unit, *.db.test.ts, crash), then type-check, lint and next build
//   node scripts/test.mjs --unit     only tests that need no database server
//   node scripts/test.mjs FILE...    just those files
// Node 20's --test does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SKIP = new Set(['node_modules', '.next', '.git', '.stagecraft', 'e2e', 'generated', 'test-results']);
function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.test\.ts$/.test(name)) out.push(path.relative(root, p));
  }
  return out;
}
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const explicit = args.filter((a) => !a.startsWith('--'));
let files = explicit.length ? explicit : walk(root, []).sort();
if (unitOnly) files = files.filter((f) => !f.endsWith('.db.test.ts'));

const run = (cmd, argv, opts = {}) => {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }, ...opts });
  return r.status ?? 1;
};
let failed = 0;
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
failed |= run(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files]);
if (!explicit.length) {
  console.log('\n# type-check (tsc) and lint (eslint)');
  failed |= run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
  failed |= run(process.execPath, ['node_modules/eslint/bin/eslint.js', '.']);
  console.log('\n# the app builds (next build)');
  failed |= run(process.execPath, ['node_modules/next/dist/bin/next', 'build']);
}
process.exit(failed ? 1 : 0);
