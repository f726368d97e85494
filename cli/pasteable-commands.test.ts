// Commands and folders the CLI prints for the user to paste (`stagecraft validate <path>`, the folder
// `pull` wrote to, a --set to retype, `resume RUN --model …`) printed a path with a space or a quote as it
// was: pasted, the shell split it. They are shell words now, quoted when they need it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-pasteable-');
after(cleanup);

/** what a POSIX shell makes of `text`: its words */
const wordsOf = (text: string) => JSON.parse(spawnSync('sh', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${text}`], { encoding: 'utf8' }).stdout) as string[];

test('the folder pull wrote to is printed as one shell word: cd to it as pasted', async () => {
  assert.equal((await runCli(['push', path.join(ROOT, 'examples/summarize')], { env })).code, 0);
  const dir = path.join(root, "my skills", "it's $here");
  const r = await runCli(['pull', 'summarize', dir], { env });
  assert.equal(r.code, 0, r.err);
  const printed = / to (.+)\n$/.exec(r.out)![1];
  assert.deepEqual(wordsOf(printed), [dir]);
  const cd = spawnSync('sh', ['-c', `cd ${printed} && pwd`], { encoding: 'utf8' });
  assert.equal(cd.stdout.trim(), dir);
});

test('run of an invalid skill in a folder with a space names the validate command to paste', async () => {
  const dir = path.join(root, 'a bundle; with (parts)');
  cpSync(path.join(ROOT, 'examples/summarize'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'skill.md'), '---\nname: bad\nentry: draft\ngraph:\n  draft: []\nfinal_output: post\nartifacts:\n  post: { type: object }\nphasez: {}\nphasey: {}\n---\nbody\n');
  const r = await runCli(['run', dir], { env });
  assert.equal(r.code, 2, r.out + r.err);
  const command = /All of them: (stagecraft validate .+)$/m.exec(r.err)![1];
  assert.deepEqual(wordsOf(command), ['stagecraft', 'validate', dir]);
});

test('the --set and --model a message asks to retype are words the shell gives back whole', async () => {
  const set = await runCli(['fork', 'run_any', '--at', 'input', '--set', "it's=New text"], { env });
  assert.equal(set.code, 2);
  const retyped = /a string needs quotes: (--set .+)\.$/m.exec(set.err)![1];
  assert.deepEqual(wordsOf(retyped), ['--set', `it's="New text"`]);
  const model = await runCli(['resume', '--model', 'openai:my model'], { env });
  assert.equal(model.code, 2);
  const command = /\((stagecraft resume RUN --model .+)\);/.exec(model.err)![1];
  assert.deepEqual(wordsOf(command), ['stagecraft', 'resume', 'RUN', '--model', 'openai:my model']);
  const replay = await runCli(['resume', 'run_any', '--model', 'replay:run a;b'], { env });
  assert.equal(replay.code, 2);
  assert.deepEqual(wordsOf(/\(`(stagecraft replay .+)`\)/.exec(replay.err)![1]), ['stagecraft', 'replay', 'run a;b']);
});
