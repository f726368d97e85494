// `stagecraft push` and `pull` given a folder they cannot use. `push` of a path that is not there was an "internal error" with node's ENOENT stack; a
// skill.md named instead of its folder was "The bundle has no skill.md" (now it stands for its folder, as for run
// and validate). Both are usage errors (exit 2) saying what to pass, in run's and validate's words.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN, ROOT, runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-push-args-');
after(cleanup);

test('push of a missing path or of a file other than skill.md is a one-line usage error, no stack (as run and validate say it)', async () => {
  const missing = await runCli(['push', '/nowhere/bundle'], { env });
  assert.equal(missing.code, 2, missing.err);
  assert.match(missing.err, /^stagecraft: \/nowhere\/bundle does not exist; pass a bundle folder or its skill\.md$/m);
  assert.doesNotMatch(missing.err, /internal error|\n\s+at /);
  for (const cmd of ['push', 'validate']) {
    const file = await runCli([cmd, 'examples/summarize/input.json'], { env });
    assert.equal(file.code, 2, file.err);
    assert.match(file.err, /^stagecraft: examples\/summarize\/input\.json is not a skill\.md; pass a bundle folder or its skill\.md$/m, cmd);
  }
});

// `push x/skill.md` was refused ("is a file, not a folder") while run and validate take a skill.md for its folder
test('push of a skill.md saves its folder, as push of the folder does', async () => {
  const byFile = await runCli(['push', 'examples/summarize/skill.md', '--json'], { env });
  assert.equal(byFile.code, 0, byFile.err);
  const byFolder = await runCli(['push', 'examples/summarize', '--json'], { env });
  assert.equal(byFolder.code, 0, byFolder.err);
  const [a, b] = [byFile, byFolder].map((r) => JSON.parse(r.out) as { skill: string; version: { hash: string } });
  assert.equal(a.skill, 'summarize');
  assert.equal(a.version.hash, b.version.hash);
});

// `pull NAME /proc/x` spun a core for ever (node's recursive mkdir loops where mkdir answers ENOENT
// under a folder that exists); a folder that cannot be made is a usage error naming it
test('pull into a folder that cannot be made says so at once (exit 2)', { skip: process.platform === 'linux' ? false : 'needs /proc' }, async () => {
  const pushed = await runCli(['push', 'examples/summarize'], { env });
  assert.equal(pushed.code, 0, pushed.err);
  // killed after 20 s: before, it never ended
  const r = spawnSync(process.execPath, [BIN, 'pull', 'summarize', '/proc/stagecraft-pull-test'], { cwd: ROOT, env, encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^stagecraft: Cannot make the folder \/proc\/stagecraft-pull-test to pull into \(ENOENT at \/proc\/stagecraft-pull-test\): name a folder you can write\.$/m);
});

// the same mistakes exited 1 here and 2 elsewhere: `pull --version zzzzzz` (fork, replay, regress: 2) and
// `push` of a folder without skill.md ("The bundle cannot be saved…"; validate and run: 2)
test('pull of a malformed --version and push of a folder without skill.md are usage errors (exit 2), one line', async () => {
  const pulled = await runCli(['pull', 'summarize', path.join(dir, 'out'), '--version', 'zzzzzz'], { env });
  assert.equal(pulled.code, 2, pulled.err);
  assert.match(pulled.err, /^stagecraft: --version "zzzzzz": must be a version's hash/m);
  const empty = mkdtempSync(path.join(dir, 'empty-'));
  const pushed = await runCli(['push', empty], { env });
  assert.equal(pushed.code, 2, pushed.err);
  assert.match(pushed.err, /^stagecraft: \S+ has no skill\.md; a bundle is a folder holding skill\.md and the files it names$/m);
  assert.doesNotMatch(pushed.err, /cannot be saved|internal error|\n\s+at /);
});
