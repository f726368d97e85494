// `stagecraft pull` says where it wrote the skill as a path the user can cd to: the folder as they gave
// it, or ./NAME by default — an absolute folder was printed relative to the current one (`../../tmp/x`).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-pull-where-');
after(cleanup);

test('pull prints the folder it wrote as given, or ./NAME by default', async () => {
  assert.equal((await runCli(['push', path.join(ROOT, 'examples/summarize')], { env })).code, 0);
  const cwd = path.join(root, 'work', 'here');
  mkdirSync(cwd, { recursive: true });
  const elsewhere = path.join(root, 'elsewhere');
  const abs = await runCli(['pull', 'summarize', elsewhere], { env, cwd });
  assert.equal(abs.code, 0, abs.err);
  assert.match(abs.out, new RegExp(`\\(5 files\\) to ${elsewhere.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
  const rel = await runCli(['pull', 'summarize', '../sibling'], { env, cwd });
  assert.match(rel.out, / to \.\.\/sibling\n$/);
  const byDefault = await runCli(['pull', 'summarize'], { env, cwd });
  assert.match(byDefault.out, / to \.\/summarize\n$/);
  assert.ok(existsSync(path.join(cwd, 'summarize', 'skill.md')));
  // an empty folder argument is the current folder, and is said so
  const here = path.join(root, 'here-empty');
  mkdirSync(here);
  const empty = await runCli(['pull', 'summarize', ''], { env, cwd: here });
  assert.equal(empty.code, 0, empty.err);
  assert.match(empty.out, / to \.\n$/);
  assert.ok(existsSync(path.join(here, 'skill.md')));
});
