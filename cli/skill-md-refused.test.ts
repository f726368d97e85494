// A skill.md that is there but refused — over its 1 MB limit, or not UTF-8 — was also said to be
// missing: `push` ended "(and 1 more problem)" (--json listed "The bundle has no skill.md"),
// `validate` of an oversized one gave that second error too, and `run` of an oversized one said
// "No skill.md in DIR … Create it". Each now says the one problem, located at skill.md.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-skill-md-refused-');
after(cleanup);

function bundle(name: string, skillMd: Buffer): string {
  const b = path.join(dir, name);
  mkdirSync(b);
  writeFileSync(path.join(b, 'skill.md'), skillMd);
  return b;
}
const huge = bundle('huge', Buffer.from(`---\nname: huge\nentry: a\ngraph:\n  a: []\n---\n${'x'.repeat(1_100_000)}\n`));
const latin = bundle('latin', Buffer.concat([Buffer.from('---\nname: latin\ndescription: caf'), Buffer.from([0xe9]), Buffer.from('\nentry: a\ngraph:\n  a: []\n---\n')]));

const TOO_LARGE = /skill\.md is \d+ bytes, over the limit of \d+ for one file\./;
const NOT_UTF8 = /skill\.md is not valid UTF-8: byte 0xE9 at line 3, column 17/;

test('push names the one problem of a refused skill.md, not also a missing one', async () => {
  for (const [b, said] of [
    [huge, TOO_LARGE],
    [latin, NOT_UTF8],
  ] as const) {
    const r = await runCli(['push', b, '--json'], { env });
    assert.equal(r.code, 1, r.err);
    const { error } = JSON.parse(r.out) as { error: { code: string; message: string; problems: { code: string }[] } };
    assert.equal(error.code, 'bundle_invalid');
    assert.match(error.message, said);
    assert.doesNotMatch(error.message, /more problem/);
    assert.equal(error.problems.length, 1, JSON.stringify(error.problems));
  }
});

test('validate and run of an oversized skill.md: that error alone, located at skill.md; run exits 2 as for an invalid skill', async () => {
  const v = await runCli(['validate', huge], { env });
  assert.equal(v.code, 1, v.err);
  assert.match(v.err, TOO_LARGE);
  assert.doesNotMatch(v.err, /has no skill\.md/);
  const r = await runCli(['run', huge, '--json'], { env });
  assert.equal(r.code, 2, r.err);
  const { error } = JSON.parse(r.out) as { error: { code: string; message: string } };
  assert.equal(error.code, 'skill_invalid');
  assert.ok(error.message.includes(`${path.join(huge, 'skill.md')}:1:1: error: `), error.message);
  assert.match(error.message, TOO_LARGE);
});
