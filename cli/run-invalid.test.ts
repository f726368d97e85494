// `stagecraft run` of a skill with several errors printed only the first ("skill.md has 4 errors;
// first: …") and nothing of where the others are: it points to `stagecraft validate <path>`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir: tmp, env, cleanup } = tempCliEnv('sc-run-invalid-');
after(cleanup);

test('run of a skill with several errors: the first, then `stagecraft validate <path>` for all of them (exit 2)', async () => {
  const dir = path.join(tmp, 'bad');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'skill.md'), '---\nname: bad\nbogus: 1\nphases: 3\n---\nhi\n');
  const r = await runCli(['run', dir], { env });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /^stagecraft: skill\.md has 4 errors; first: /m);
  assert.match(r.err, new RegExp(`^All of them: stagecraft validate ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  const one = await runCli(['run', path.join(dir, 'skill.md'), '--json'], { env });
  assert.equal(one.code, 2, one.err);
  assert.equal(JSON.parse(one.out).error.code, 'skill_invalid', 'the JSON fields stay');
  assert.match(JSON.parse(one.out).error.message, /stagecraft validate .*bad\/skill\.md$/);
});

// a folder that cannot be a bundle (a binary file in it) was run as a failure of the run (exit 1): it is an
// invalid skill passed to `run`, exit 2, as for skill.md errors; `push` of it still exits 1, as `validate`
test('run of a folder holding a binary file: exit 2, naming the file; push of it exits 1', async () => {
  const dir = path.join(tmp, 'with-binary');
  cpSync('examples/summarize', dir, { recursive: true });
  writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]));
  const r = await runCli(['run', dir, '--json'], { env });
  assert.equal(r.code, 2, r.err);
  assert.equal(JSON.parse(r.out).error.code, 'bundle_invalid');
  assert.match(r.err, /The bundle cannot be run: .*logo\.png is not UTF-8 text/);
  assert.equal((await runCli(['push', dir], { env })).code, 1);
});

// a folder with several bundle problems named the first "(and 1 more problem)" and not where the rest are
test('run of a folder with two bundle problems: the first, then `stagecraft validate <path>` for all of them', async () => {
  const dir = path.join(tmp, 'two binaries');
  cpSync('examples/summarize', dir, { recursive: true });
  writeFileSync(path.join(dir, 'a.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]));
  writeFileSync(path.join(dir, 'b.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xfe]));
  const r = await runCli(['run', dir], { env });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /The bundle cannot be run: .*\.png is not UTF-8 text.* \(and 1 more problem\)/);
  assert.ok(r.err.includes(`\nAll of them: stagecraft validate '${dir}'`), r.err);
  const all = await runCli(['validate', dir], { env });
  assert.match(all.err, /a\.png.*not UTF-8 text[\s\S]*b\.png.*not UTF-8 text/, 'validate lists both');
});

// an input the entry phase's contract refuses was recorded as a run, blocked at once (exit 1, a row in
// `runs`), where the app refuses the same input before anything is recorded (POST /api/runs, 422)
test('run with an input its entry phase refuses: exit 2, the located contract error, and no run recorded', async () => {
  const input = path.join(tmp, 'bad-input.json');
  writeFileSync(input, '{"question": 7}');
  const r = await runCli(['run', 'examples/research_brief', '--input', input, '--json'], { env });
  assert.equal(r.code, 2, r.err);
  const out = JSON.parse(r.out);
  assert.equal(out.error.code, 'input_invalid');
  assert.match(out.error.message, /^The input does not satisfy the input contract of the entry phase gather: \/question must be string\./);
  const runs = await runCli(['runs', '--json'], { env });
  assert.deepEqual(JSON.parse(runs.out).runs.filter((x: { skill: string }) => x.skill === 'research_brief'), [], 'no run of it was recorded');
});

// the contract error named its JSON pointer alone: a CI log said `/question must be string`, with no
// file:line:col to jump to, where the studio's input editor marks the line and column of the value
test('run with an input its entry phase refuses: each error also at FILE:line:col of the --input text (stdin for -)', async () => {
  const input = path.join(tmp, 'bad-input-lines.json');
  writeFileSync(input, '{\n  "question": 7\n}\n');
  const r = await runCli(['run', 'examples/research_brief', '--input', input], { env });
  assert.equal(r.code, 2, r.err);
  assert.ok(r.err.includes(`stagecraft: The input does not satisfy the input contract of the entry phase gather: /question must be string. Fix the input, or the phase's input_schema.\n${input}:2:15: /question must be string\n`), r.err);
  const piped = await runCli(['run', 'examples/research_brief', '--input', '-', '--json'], { env, stdin: '{"other": 1,\n "question": [1]}' });
  assert.equal(piped.code, 2, piped.err);
  const { error } = JSON.parse(piped.out) as { error: { code: string; message: string } };
  assert.equal(error.code, 'input_invalid');
  assert.match(error.message, /\nstdin:2:14: \/question must be string$/);
});
