// `stagecraft run bad` of an invalid skill located its first error by the absolute path of skill.md
// (`/home/ci/work/bad/skill.md:3:1`, and so in `--json`'s diagnostics), where `stagecraft validate bad`
// says `bad/skill.md:3:1`: CI annotations and editors take the path relative to the checkout. Named by
// a relative path, run now locates them as validate does; named by an absolute one, absolute as before.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir: tmp, env, cleanup } = tempCliEnv('sc-run-invalid-where-');
after(cleanup);
mkdirSync(path.join(tmp, 'bad'));
writeFileSync(path.join(tmp, 'bad', 'skill.md'), '---\nname: bad\nbogus: 1\nphases: 3\n---\nhi\n');

type Finding = { file: string; line: number; column: number; rule: string };

test('run of an invalid skill named by a relative path locates its errors as validate does, text and --json', async () => {
  const validated = JSON.parse((await runCli(['validate', 'bad', '--json'], { env, cwd: tmp })).out) as { diagnostics: Finding[] };
  const run = await runCli(['run', 'bad'], { env, cwd: tmp });
  assert.equal(run.code, 2, run.err);
  const first = validated.diagnostics[0];
  assert.equal(first.file, 'bad/skill.md');
  assert.match(run.err, new RegExp(`^stagecraft: skill\\.md has \\d+ errors; first: bad/skill\\.md:${first.line}:${first.column}: error: `, 'm'));
  const json = await runCli(['run', 'bad', '--json'], { env, cwd: tmp });
  assert.equal(json.code, 2, json.err);
  const error = (JSON.parse(json.out) as { error: { code: string; diagnostics: Finding[] } }).error;
  assert.equal(error.code, 'skill_invalid');
  assert.deepEqual(error.diagnostics, validated.diagnostics);
  // named by its absolute path: located by it, as before
  const absolute = await runCli(['run', path.join(tmp, 'bad')], { env, cwd: tmp });
  assert.ok(absolute.err.includes(`first: ${path.join(tmp, 'bad', 'skill.md')}:${first.line}:${first.column}: `), absolute.err);
});
