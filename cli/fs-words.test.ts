// A file named on the command line that is not there (or is a folder) is said in plain words — what,
// where, what to do — not node's "ENOENT: no such file or directory, stat 'x'"; a usage error (exit 2).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { unreadable, unwritable } from './fs-words';

const { dir, env, cleanup } = tempCliEnv('sc-fs-words-');
after(cleanup);

const NODE_TEXT = /ENOENT|EISDIR|ENOTDIR|no such file|illegal operation|(open|stat|lstat|read) '/;

test('an error code of node becomes words; an unknown one keeps its text without the code and the call', () => {
  const err = (code: string, message: string) => Object.assign(new Error(message), { code });
  assert.equal(unreadable('--input a.json', err('ENOENT', "ENOENT: no such file or directory, open 'a.json'")).message, '--input a.json does not exist: check the path.');
  assert.equal(unreadable('--input d', err('EISDIR', 'EISDIR: illegal operation on a directory, read')).message, '--input d is a folder, not a file: name a file in it.');
  assert.equal(unwritable('--out x/y.json', err('ENOENT', "ENOENT: no such file or directory, lstat 'x'")).message, '--out x/y.json cannot be written: its folder does not exist. Create it first, or write elsewhere.');
  assert.equal(unwritable('--out f/y.json', err('ENOTDIR', "ENOTDIR: not a directory, lstat 'f'")).message, '--out f/y.json cannot be written: a part of its path is a file, not a folder. Write elsewhere.');
  assert.equal(unreadable('--value v', err('EIO', "EIO: i/o error, read 'v'")).message, '--value v cannot be read: i/o error.');
  assert.equal(unreadable('--value v', err('EIO', 'x')).code, 'usage');
});

test('run --input, fork --value, import and export --out name the missing file or folder in plain words, exit 2', async () => {
  const missing = path.join(dir, 'nope.json');
  for (const [argv, said] of [
    [['run', 'examples/summarize', '--input', missing], `--input ${missing} does not exist: check the path.`],
    [['run', 'examples/summarize', '--input', 'examples'], '--input examples is a folder, not a file: name a file in it.'],
    [['fork', 'run_any', '--at', 'input', '--value', missing], `--value ${missing} does not exist: check the path.`],
    [['import', missing], `the export file ${missing} does not exist: check the path.`],
  ] as const) {
    const r = await runCli([...argv], { env });
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
    assert.ok(r.err.includes(`stagecraft: ${said}`), r.err);
    assert.doesNotMatch(r.err, NODE_TEXT, argv.join(' '));
  }
  const run = await runCli(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json'], { env });
  const out = path.join(dir, 'no-such-folder', 'x.json');
  const r = await runCli(['export', JSON.parse(run.out).runId, '--out', out], { env });
  assert.equal(r.code, 2, r.err);
  assert.ok(r.err.includes(`stagecraft: --out ${out} cannot be written: its folder does not exist.`), r.err);
  assert.doesNotMatch(r.err, NODE_TEXT);
});

test('run --input or fork --value of an empty file, or nothing on standard input, says it is empty, exit 2', async () => {
  const empty = path.join(dir, 'empty.json');
  writeFileSync(empty, '');
  const blank = path.join(dir, 'blank.json');
  writeFileSync(blank, '\n  \n');
  const spaces = await runCli(['run', 'examples/summarize', '--input', blank], { env });
  assert.equal(spaces.code, 2, spaces.err);
  assert.ok(spaces.err.includes(`stagecraft: --input ${blank} holds only whitespace: give the run's input`), spaces.err);
  const file = await runCli(['run', 'examples/summarize', '--input', empty], { env });
  assert.equal(file.code, 2, file.err);
  assert.ok(file.err.includes(`stagecraft: --input ${empty} is empty: give the run's input as a JSON object (at least {}), or leave --input out.`), file.err);
  const stdin = await runCli(['run', 'examples/summarize', '--input', '-'], { env, stdin: '' });
  assert.equal(stdin.code, 2, stdin.err);
  assert.match(stdin.err, /^stagecraft: --input - \(standard input\) is empty: /m);
  const value = await runCli(['fork', 'run_any', '--at', 'input', '--value', empty], { env });
  assert.equal(value.code, 2, value.err);
  assert.ok(value.err.includes(`stagecraft: --value ${empty} is empty: `), value.err);
  assert.doesNotMatch(stdin.err + file.err + value.err, /Unexpected end of JSON input/);
});

test('run --input and fork --value that are not JSON say where, as FILE:line:col (stdin for -), exit 2', async () => {
  const bad = path.join(dir, 'bad.json');
  writeFileSync(bad, '{\n  "path": "report.txt"\n  "x": 1\n}\n');
  const input = await runCli(['run', 'examples/summarize', '--input', bad], { env });
  assert.equal(input.code, 2, input.err);
  assert.ok(input.err.includes(`stagecraft: --input ${bad} is not valid JSON: `), input.err);
  assert.ok(input.err.includes(`(at ${bad}:3:3)`), input.err);
  const stdin = await runCli(['run', 'examples/summarize', '--input', '-'], { env, stdin: '{"path": }' });
  assert.equal(stdin.code, 2, stdin.err);
  assert.ok(stdin.err.includes('(at stdin:1:10)'), stdin.err);
  const value = await runCli(['fork', 'run_any', '--at', 'input', '--value', bad], { env });
  assert.equal(value.code, 2, value.err);
  assert.ok(value.err.includes(`stagecraft: --value ${bad} is not valid JSON: `), value.err);
  assert.ok(value.err.includes(`(at ${bad}:3:3)`), value.err);
});
