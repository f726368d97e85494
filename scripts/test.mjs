#!/usr/bin/env node
// Runs the test suite with node's own test runner (+ tsx for TypeScript).
//   node scripts/test.mjs            prepares the machine (scripts/prepare.mjs), then every test, in this order: unit and database tests (*.test.ts,
//                                    *.db.test.ts, the crash proof); type-check and lint; the app's
//                                    production build; the HTTP tests against that build
//                                    (*.http.test.ts); the browser tests (Playwright, e2e/)
//                                    then every `bench:*` script of package.json once at its tiny size (--tiny, BENCH_TINY=1)
//   node scripts/test.mjs --unit     only tests that need no database server
//   node scripts/test.mjs --benches  only the benches at their tiny size (bench:app needs `next build` first)
//   node scripts/test.mjs FILE...    just those files (an e2e/*.spec.ts goes to Playwright)
//   TEST_CONCURRENCY=N               N test files at once (else 4 in the unit and database stage, the
//                                    longest first: scripts/test-order.mjs; 2 for the HTTP tests, the longest first, and given files)
// Node 20's --test does not expand globs, so the files are listed here.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepare } from './prepare.mjs';
import { buildTests, needsTsx } from './build-tests.mjs';
import { concurrency, longestFirst } from './test-order.mjs';
import { slowestLine } from './e2e-slowest.mjs';
import { testBrowser } from './browser-path.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SKIP = new Set(['node_modules', '.next', 'dist', '.git', '.stagecraft', 'e2e', 'generated', 'test-results', '.bench-peers', '.bench-build', '.test-build']);
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
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
// Every temporary folder the tests, the servers, the benches and the browser make goes in one of this
// run's own (TMPDIR, which os.tmpdir() reads), removed when the run ends: each `npm test` left some 200
// folders (~45 MB) in /tmp, data dirs, workspaces and scratch of files whose own cleanup never ran.
// Open to all, as /tmp is (sticky): the tests that run as another user (nobody) make their folders in it.
const testTmp = mkdtempSync(path.join(os.tmpdir(), 'sc-tests-'));
chmodSync(testTmp, 0o1777);
env.TMPDIR = testTmp;
process.on('exit', () => rmSync(testTmp, { recursive: true, force: true }));
// Ctrl-C or a cancelled job ends the run as a failure, its folder removed with it
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.on(signal, () => process.exit(code));
// Chromium, bubblewrap, python3 and a running Postgres first (installed or started when missing);
// nothing is tested on a machine that cannot run every test.
if (prepare({ env }) !== 0) process.exit(1);
// DATABASE_URL names the server the database tests create their databases on; the tests themselves
// choose between it and the embedded store, so it is not passed down as it is.
if (env.DATABASE_URL) {
  env.STAGECRAFT_TEST_PG_URL ??= env.DATABASE_URL;
  delete env.DATABASE_URL;
}
const run = (cmd, argv, opts = {}) => spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env, ...opts }).status ?? 1;
/** node running `argv` with its output held, then printed in one piece: its exit status */
const quietly = (argv) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${argv[0]}: ${e.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(out));
      resolve(code ?? 1);
    });
  });
const nodeTest = (pre, files, atOnce) => (files.length ? run(process.execPath, [...pre, '--test', `--test-concurrency=${atOnce}`, ...files]) : 0);
/**
 * node's test runner on `files`: compiled to JavaScript first (scripts/build-tests.mjs), but for the
 * few that import by a computed path, which run through tsx; STAGECRAFT_TEST_TSX=1 runs them all
 * through tsx, as they were before.
 */
async function nodeTests(files, atOnce = concurrency(2)) {
  if (!files.length) return 0;
  if (process.env.STAGECRAFT_TEST_TSX === '1') return nodeTest(['--import', 'tsx'], files, atOnce);
  const viaTsx = files.filter(needsTsx);
  const compiled = files.filter((f) => !viaTsx.includes(f));
  let built;
  try {
    built = await buildTests(compiled);
  } catch (e) {
    console.error(`the tests did not compile (STAGECRAFT_TEST_TSX=1 runs them through tsx): ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  try {
    return nodeTest([], built.files.map((f) => path.relative(root, f)), atOnce) | nodeTest(['--import', 'tsx'], viaTsx, atOnce);
  } finally {
    rmSync(built.dir, { recursive: true, force: true });
  }
}
const playwright = (files, report) =>
  report
    ? run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--reporter=list,json', ...files], { env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report } })
    : run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', ...files]);

/**
 * Every `bench:*` script of package.json, once each at its tiny size (`npm run <name> -- --tiny` with
 * BENCH_TINY=1): a bench that no longer runs fails the suite. Its figures are not judged here.
 */
function benches() {
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {};
  // bench:inspector has a test of its own that runs it at this size and checks its figures
  // (bench/bench-inspector.http.test.ts): it is not run a second time here
  const ownTest = new Set(['bench:inspector']);
  const names = Object.keys(scripts).filter((n) => n.startsWith('bench:') && !ownTest.has(n)).sort();
  const npm = process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath) ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  let bad = 0;
  const took = [];
  for (const name of names) {
    const t0 = Date.now();
    console.log(`\n## npm run ${name} -- --tiny`);
    // bench:workers makes its databases on the test server rather than on a private one of its own (initdb is slow)
    const benchEnv = { ...env, BENCH_TINY: '1', BENCH_PG_URL: env.BENCH_PG_URL ?? env.STAGECRAFT_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' };
    const status = run(npm[0], [...npm[1], 'run', '--silent', name, '--', '--tiny'], { env: benchEnv });
    took.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)} s${status ? ' FAILED' : ''}`);
    if (status) {
      console.error(`${name} failed at its tiny size (exit ${status})`);
      bad = 1;
    }
  }
  console.log(`\n# benches at their tiny size: ${took.join(', ')}`);
  return bad;
}

let failed = 0;
// how long each stage took, printed at the end (CI has a time budget: this says where it went)
const stages = [];
let stageStart = Date.now();
const stageDone = (name) => {
  const now = Date.now();
  stages.push(`${name} ${Math.round((now - stageStart) / 1000)} s`);
  stageStart = now;
};
const finish = () => {
  console.log(`\n# stages: ${stages.join(', ')}`);
  process.exit(failed ? 1 : 0);
};
if (args.includes('--benches')) process.exit(benches());
if (explicit.length) {
  const specs = explicit.filter((f) => f.endsWith('.spec.ts'));
  failed |= await nodeTests(explicit.filter((f) => !f.endsWith('.spec.ts')));
  if (specs.length) failed |= playwright(specs);
  process.exit(failed ? 1 : 0);
}

const all = walk(root, []).sort();
const http = all.filter((f) => f.endsWith('.http.test.ts'));
let plain = all.filter((f) => !f.endsWith('.http.test.ts'));
if (unitOnly) plain = plain.filter((f) => !f.endsWith('.db.test.ts'));
// four files at once, the longest first: the stage mostly waits (scripts/test-order.mjs)
failed |= await nodeTests(longestFirst(plain), concurrency(4));
stageDone('unit and database tests');
if (unitOnly) finish();

console.log('\n# type-check (tsc) and lint (eslint)');
// both at once (each ~24 s here, neither keeping 2 cores busy), each one's output printed whole after it
const [typed, linted] = await Promise.all([quietly(['node_modules/typescript/bin/tsc', '-p', '.']), quietly(['node_modules/eslint/bin/eslint.js', '.'])]);
failed |= typed | linted;
stageDone('tsc and eslint');
console.log('\n# the app builds (next build)');
// the build does not type-check again what tsc has just passed (next.config.mjs)
const built = run(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { env: typed === 0 ? { ...env, STAGECRAFT_TYPES_CHECKED: '1' } : env });
failed |= built;
stageDone('next build');
if (built === 0) {
  console.log('\n# HTTP tests against the built app');
  failed |= await nodeTests(longestFirst(http));
  stageDone('HTTP tests');
  console.log('\n# every bench:* once, at its tiny size');
  failed |= benches();
  stageDone('benches');
  console.log('\n# browser tests (Playwright, Chromium)');
  // the program playwright.config.ts launches: the headless shell when installed, else Chromium
  const browser = testBrowser(env);
  if (!existsSync(browser)) {
    console.error(`no Chromium at ${browser} (apt-get install -y chromium, or set CHROMIUM_PATH): the browser tests cannot run`);
    failed |= 1;
  } else {
    // the specs that fill the app's run slots run after the others, alone (playwright.config.ts), with
    // an output folder of their own: a run empties its folder first, and the first run's screenshots,
    // failures and traces are kept
    // each writes a json report too, from which the specs the stage's time went to are named
    const reports = ['test-results/e2e-chromium.json', 'test-results/e2e-run-limit.json'];
    for (const r of reports) rmSync(path.join(root, r), { force: true });
    failed |= playwright(['--project=chromium'], reports[0]);
    failed |= playwright(['--project=run-limit', '--output=test-results/e2e-run-limit'], reports[1]);
    const written = reports.map((r) => path.join(root, r)).filter((r) => existsSync(r));
    if (written.length) console.log(`\n# browser tests: ${slowestLine(written.map((r) => JSON.parse(readFileSync(r, 'utf8'))))}`);
  }
  stageDone('browser tests');
}
finish();
