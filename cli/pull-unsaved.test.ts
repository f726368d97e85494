// `stagecraft pull` into a folder replaced its files without a word: a skill.md edited and not pushed
// yet was lost to a pull of another version. Now, as `git checkout`, a file whose text is in no saved
// version of the skill stops the pull (exit 1, nothing written, the files named, push or --force said);
// a file a saved version holds (pull --version gets it back) is replaced as before, and --force
// replaces the unsaved too.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UnsavedChangesError } from '../lib/kernel/errors';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-pull-unsaved-');
after(cleanup);

const hashOf = (out: string) => (JSON.parse(out) as { version: { hash: string } }).version.hash;

test('pull refuses to replace files with changes in no saved version, unless --force', async () => {
  const folder = path.join(root, 'summarize');
  cpSync(path.join(ROOT, 'examples/summarize'), folder, { recursive: true });
  const pushed = await runCli(['push', folder, '--json'], { env });
  assert.equal(pushed.code, 0, pushed.err);
  const v1 = hashOf(pushed.out);
  const skillMd = path.join(folder, 'skill.md');
  const saved = readFileSync(skillMd, 'utf8');
  const edited = `${saved}\nAn edit not pushed.\n`;
  writeFileSync(skillMd, edited);

  const refused = await runCli(['pull', 'summarize', 'summarize'], { env, cwd: root });
  assert.equal(refused.code, 1, refused.err);
  assert.equal(refused.out, '');
  assert.match(refused.err, /^stagecraft: skill\.md in summarize holds changes in no saved version of summarize: the pull would replace it, so it wrote nothing\.\n/);
  assert.match(refused.err, /`stagecraft push summarize` keeps them as a version first; or pull again with --force to replace them\.\n$/);
  assert.doesNotMatch(refused.err, /usage|Usage/, 'no usage: the command was well-formed');
  assert.equal(readFileSync(skillMd, 'utf8'), edited, 'the edit is kept');

  const json = await runCli(['pull', 'summarize', folder, '--json'], { env });
  assert.equal(json.code, 1);
  const { error } = JSON.parse(json.out) as { error: { code: string; message: string; files: string[] } };
  assert.equal(error.code, 'unsaved_changes');
  assert.deepEqual(error.files, ['skill.md']);
  assert.match(error.message, /--force/);

  const forced = await runCli(['pull', 'summarize', folder, '--force'], { env });
  assert.equal(forced.code, 0, forced.err);
  assert.match(forced.out, /^summarize: wrote version \w+ \(5 files\) to /);
  assert.equal(readFileSync(skillMd, 'utf8'), saved, '--force replaces it');

  // v2 pushed: the folder's text is saved, so pulling v1 over it loses nothing and is allowed
  writeFileSync(skillMd, edited);
  const second = await runCli(['push', folder, '--json'], { env });
  assert.equal(second.code, 0, second.err);
  assert.notEqual(hashOf(second.out), v1);
  const back = await runCli(['pull', 'summarize', folder, '--version', v1.slice(0, 12)], { env });
  assert.equal(back.code, 0, back.err);
  assert.equal(back.err, '');
  assert.equal(readFileSync(skillMd, 'utf8'), saved);
  // and the other way: v1's text is saved too
  const forth = await runCli(['pull', 'summarize', folder], { env });
  assert.equal(forth.code, 0, forth.err);
  assert.equal(readFileSync(skillMd, 'utf8'), edited);
});

test('many files are named as the listing of a folder\'s other files is: 20, then a count; the JSON has them all', () => {
  const files = Array.from({ length: 23 }, (_, i) => `f${String(i).padStart(2, '0')}.md`);
  const e = new UnsavedChangesError('summarize', "'my dir'", files);
  assert.match(e.message, /^f00\.md, .*, f19\.md, 3 more in 'my dir' hold changes in no saved version of summarize: the pull would replace them/);
  assert.match(e.message, /\n`stagecraft push 'my dir'` keeps them/);
  assert.deepEqual(e.details.files, files);
});
