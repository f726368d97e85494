// `stagecraft replay` takes run ids and exported run files: an argument that can only be a path (a
// slash, or .json) and names no file is a usage error saying so (exit 2) — a mistyped path or a glob
// that matched nothing (`replay --check runs/*.json`) read "No run with id runs/*.json" before.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, ROOT, runCli, tempCliEnv } from './testing/spawn-cli';
import { CLI_VERSION_HINT } from './version-arg';
import { skipAsNobody } from '../lib/sandbox/testing/as-nobody';

const { env, cleanup } = tempCliEnv('sc-replay-args-');
after(cleanup);

test('replay names a path that is no file as one, not as an unknown run id', async () => {
  for (const arg of ['runs/*.json', '/nowhere/run.json', 'exported.json']) {
    const r = await runCli(['replay', '--check', arg], { env });
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, new RegExp(`No file ${arg.replace(/[.*/]/g, '\\$&')}: replay takes run ids and exported run files`));
    assert.doesNotMatch(r.err, /No run with id/);
  }
  const id = await runCli(['replay', 'run_nope'], { env });
  assert.equal(id.code, 1);
  assert.match(id.err, /No run with id run_nope\./);
});

// `replay --check fixtures/replay` (the folder of exported runs, not its files) said "No file fixtures/replay:
// … check the path" of a folder that is there, and a folder named without a slash was looked up as a run
// id ("No run with id replays"). A folder is said to be one, with the command that names its files (exit 2).
test('replay names a folder as a folder, with the command that replays its exported runs', async () => {
  for (const [arg, files] of [
    ['fixtures/replay', 'fixtures/replay/*.json'],
    ['fixtures/replay/', 'fixtures/replay/*.json'],
    ['fixtures', 'fixtures/*.json'],
  ]) {
    const r = await runCli(['replay', '--check', arg], { env });
    assert.equal(r.code, 2, r.out + r.err);
    assert.ok(r.err.startsWith(`stagecraft: ${arg} is a folder: replay takes run ids and exported run files (stagecraft export); name the files in it: stagecraft replay --check ${files}\n`), r.err);
  }
});

// `replay --check runs/a.json` of an export file it may not read crashed: "internal error: Error: EACCES:
// permission denied, open 'runs/a.json'" and node's stack (replay read it as no other command does); it is
// now read as `import` reads one — said in plain words, exit 2 — and so is its size bounded
test('an export file replay cannot read is a usage error in plain words, as import says it, not a stack', async (t) => {
  if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) return t.skip('needs root and setpriv, to run the command as a user who may not read the file');
  // a clone under `mktemp -d` (closed to other users, as CI makes it): nobody cannot run its CLI at all
  if (skipAsNobody) return t.skip(skipAsNobody);
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-replay-unreadable-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'a.json');
  writeFileSync(file, '{}');
  chmodSync(file, 0o000);
  const asNobody = (args: string[]) =>
    spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args], { cwd: ROOT, env: { ...env, HOME: dir }, encoding: 'utf8' });
  for (const args of [['replay', '--check', file], ['replay', file, file]]) {
    const r = asNobody(args);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.ok(r.stderr.startsWith(`stagecraft: the export file ${file} cannot be read: permission denied. Check its permissions.\n`), r.stderr);
    assert.doesNotMatch(r.stderr, /internal error|EACCES|\n\s+at /);
  }
});

// `replay --check` exits 1 only on a divergence: a --version that could never name a version is the
// caller's mistake (a usage error, exit 2, as the API's 400), told before any store is opened — in the CLI's
// words: where a hash is found from the command line, not the API route that lists them
test('a --version that is no hash is a usage error (exit 2) for replay, fork and regress', async () => {
  for (const argv of [
    ['replay', '--check', 'run_any', '--version', 'zzz'],
    ['fork', 'run_any', '--at', 'input', '--version', 'v1.0'],
    ['regress', 'tally', '--version', 'abc'],
  ]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, argv.join(' ') + r.out + r.err);
    assert.ok(r.err.includes(`--version "${argv[argv.length - 1]}": ${CLI_VERSION_HINT}.`), r.err);
    assert.match(r.err, /as `stagecraft push` printed it/);
    assert.doesNotMatch(r.err, /GET \/api/);
  }
});

// `--skill DIR` given a file other than skill.md replayed (or forked) with that file's folder, saying
// nothing: `--skill examples/summarize/report.txt` ran summarize. It is refused by name (exit 2).
test('--skill naming a file that is not a skill.md is a usage error, for replay and fork', async () => {
  for (const argv of [
    ['replay', '--check', 'fixtures/replay/summarize.json', '--skill', 'examples/summarize/report.txt'],
    ['fork', 'fixture-summarize', '--at', '__post__', '--skill', 'examples/summarize/report.txt'],
  ]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, argv.join(' ') + r.out + r.err);
    assert.match(r.err, /^stagecraft: examples\/summarize\/report\.txt is not a skill\.md: pass a bundle folder that holds skill\.md, or the path of a skill\.md\.\n/);
  }
});

// `replay run_nope --skill /nowhere` said "No run with id run_nope" (exit 1) while `replay RUN --skill
// /nowhere` said the folder is not there (exit 2): a --skill folder that is not there is the caller's
// mistake whatever the runs are, said before any run is looked up
test('a --skill folder that does not exist is a usage error (exit 2) before any run is looked up', async () => {
  for (const argv of [
    ['replay', 'run_nope', '--skill', '/nowhere/skill'],
    ['replay', '--check', 'run_nope', 'run_other', '--skill', '/nowhere/skill'],
    ['fork', 'run_nope', '--skill', '/nowhere/skill'],
  ]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, argv.join(' ') + r.out + r.err);
    assert.match(r.err, /^stagecraft: No skill bundle at \/nowhere\/skill: the path does not exist\. Pass a bundle folder that holds skill\.md, or the path of a skill\.md\.$/m);
    assert.doesNotMatch(r.err, /No run with id/);
  }
});

// compare given one run said only "expected two run ids, got RUN": it now says which run to name beside it
test('compare of one run says what to set it beside, exit 2 before any store is opened', async () => {
  const r = await runCli(['compare', 'run_only'], { env });
  assert.equal(r.code, 2, r.out + r.err);
  assert.ok(r.err.includes('stagecraft: expected two run ids, got run_only: name the run to set it beside, first (A): '), r.err);
  assert.match(r.err, /parentRunId in `stagecraft runs --json`/);
  const none = await runCli(['compare'], { env });
  assert.equal(none.code, 2);
  assert.ok(none.err.includes('stagecraft: expected two run ids, got nothing'), none.err);
});

// `compare examples/a examples/b` said "No run with id examples/a": a folder or a path is said as what it is
test('compare of a folder or a path says it takes run ids, exit 2 before any store is opened', async () => {
  const folder = await runCli(['compare', 'examples/summarize', 'run_b'], { env });
  assert.equal(folder.code, 2, folder.out + folder.err);
  assert.ok(folder.err.includes('stagecraft: examples/summarize is a folder: compare takes two run ids (`stagecraft runs` lists them); a skill\'s folder makes one with `stagecraft run examples/summarize`.'), folder.err);
  const file = await runCli(['compare', 'run_a', 'runs/a.json', '--json'], { env });
  assert.equal(file.code, 2, file.out + file.err);
  assert.match(file.err + file.out, /runs\/a\.json is a path, not a run id: compare takes two run ids/);
  for (const r of [folder, file]) assert.doesNotMatch(r.out + r.err, /No run with id/);
});
