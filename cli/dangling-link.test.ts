// A link in a bundle folder whose target is missing was "a symlink to nothing": validate, run and push
// now say the link, where it points (as written, and where that is), that the target is missing, and
// what to do — and a loop of links is called one.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-dangling-');
after(cleanup);

test('validate, run and push name a dangling link, where it points and that its target is missing', async () => {
  const dir = path.join(root, 'bundle');
  cpSync(path.join(ROOT, 'examples/summarize'), dir, { recursive: true });
  symlinkSync('drafts/notes.txt', path.join(dir, 'notes.txt'));
  const said = `notes.txt is a symlink to drafts/notes.txt (${path.join(dir, 'drafts/notes.txt')}), which does not exist (the link's target is missing): remove the link, or point it at a file of the bundle`;
  const validate = await runCli(['validate', dir], { env });
  assert.equal(validate.code, 1, validate.err);
  assert.ok(validate.err.includes(`${path.join(dir, 'notes.txt')}:1:1: error: ${said}`), validate.err);
  const run = await runCli(['run', dir], { env });
  assert.equal(run.code, 2, run.out + run.err);
  assert.ok(run.err.includes(`The bundle cannot be run: ${said}`), run.err);
  const push = await runCli(['push', dir], { env });
  assert.equal(push.code, 1, push.out + push.err);
  assert.ok(push.err.includes(`The bundle cannot be saved: ${said}`), push.err);
});

test('links that lead round in a loop are said to', async () => {
  const dir = path.join(root, 'looped');
  cpSync(path.join(ROOT, 'examples/summarize'), dir, { recursive: true });
  symlinkSync('b.txt', path.join(dir, 'a.txt'));
  symlinkSync('a.txt', path.join(dir, 'b.txt'));
  const r = await runCli(['validate', dir], { env });
  assert.equal(r.code, 1);
  assert.match(r.err, /error: a\.txt is a symlink to b\.txt \(.*\/looped\/b\.txt\), and the links from there lead round in a loop: remove the link/);
});
