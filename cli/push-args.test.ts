// `stagecraft push` and `pull` given a folder they cannot use. `push` of a path that is not there was an "internal error" with node's ENOENT stack; a
// skill.md named instead of its folder was "The bundle has no skill.md". Both are usage errors
// (exit 2) saying what to pass.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN, ROOT, runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-push-args-');
after(cleanup);

test('push of a missing path or of a file is a one-line usage error, no stack', async () => {
  const missing = await runCli(['push', '/nowhere/bundle'], { env });
  assert.equal(missing.code, 2, missing.err);
  assert.match(missing.err, /^stagecraft: \/nowhere\/bundle does not exist: pass the bundle folder, the one holding skill\.md\.$/m);
  assert.doesNotMatch(missing.err, /internal error|\n\s+at /);
  const file = await runCli(['push', 'examples/summarize/skill.md'], { env });
  assert.equal(file.code, 2, file.err);
  assert.match(file.err, /^stagecraft: examples\/summarize\/skill\.md is a file, not a folder: pass the bundle folder that holds skill\.md\.$/m);
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
  assert.match(pushed.err, /^stagecraft: \S+ has no skill\.md: pass the bundle folder, the one holding skill\.md\.$/m);
  assert.doesNotMatch(pushed.err, /cannot be saved|internal error|\n\s+at /);
});
