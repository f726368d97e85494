// `stagecraft help CMD` prints CMD's usage, as `stagecraft CMD --help` does (on stdout, exit 0); a word
// no command is, as `stagecraft WORD` says it (exit 2). Before, `help run` printed every command's help.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './testing/spawn-cli';

test('`help run` prints what `run --help` prints', async () => {
  const help = await runCli(['help', 'run']);
  const flag = await runCli(['run', '--help']);
  assert.equal(help.code, 0, help.err);
  assert.match(help.out, /^usage:\n {2}stagecraft run /);
  assert.doesNotMatch(help.out, /stagecraft validate/);
  assert.equal(help.out, flag.out);
  const dashed = await runCli(['--help', 'replay']);
  assert.equal(dashed.out, (await runCli(['replay', '--help'])).out);
});

test('`help` alone prints the whole help; `help WORD` of no command is an unknown command', async () => {
  const all = await runCli(['help']);
  assert.equal(all.code, 0);
  assert.match(all.out, /stagecraft validate[\s\S]*stagecraft run /);
  const typo = await runCli(['help', 'replays']);
  assert.equal(typo.code, 2);
  assert.match(typo.err, /^stagecraft: unknown command "replays": did you mean `stagecraft replay`\?/);
});
