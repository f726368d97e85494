// `stagecraft validate` names the skill as it was given: an absolute path stays absolute (it was
// printed relative to the working directory, a path the user never typed); a relative one reads as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateCommand } from './validate';
import { runCli, tempCliEnv } from './testing/spawn-cli';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s), stdin: async () => '' } };
}

test('an absolute path is printed as given, in the verdict and in each located error', async () => {
  const abs = path.resolve('examples', 'blog_writer');
  const ok = io();
  assert.equal(await validateCommand([abs], ok.io), 0);
  assert.equal(ok.err.at(-1), `${path.join(abs, 'skill.md')}: valid`);
  assert.equal(await validateCommand([path.join(abs, 'skill.md'), '--json'], ok.io), 0);

  const dir = mkdtempSync(path.join(tmpdir(), 'sc-validate-'));
  writeFileSync(path.join(dir, 'skill.md'), '---\nname: bad\nentry: draft\ngraph:\n  draft: []\nfinal_output: post\nartifacts:\n  post: { type: object }\nphasez: {}\n---\nbody\n');
  const bad = io();
  assert.equal(await validateCommand([dir], bad.io), 1);
  assert.ok(bad.err[0].startsWith(`${path.join(dir, 'skill.md')}:9:1: error:`), bad.err[0]);
  assert.match(bad.err.at(-1) ?? '', new RegExp(`^${path.join(dir, 'skill.md').replace(/[.]/g, '\\.')}: 1 error`));
});

test('a relative path keeps reading as before: relative to the working directory', async () => {
  const rel = io();
  assert.equal(await validateCommand([path.join('examples', 'blog_writer')], rel.io), 0);
  assert.equal(rel.err.at(-1), `${path.join('examples', 'blog_writer', 'skill.md')}: valid`);
  const dotted = io();
  assert.equal(await validateCommand(['./examples/blog_writer/'], dotted.io), 0);
  assert.equal(dotted.err.at(-1), `${path.join('examples', 'blog_writer', 'skill.md')}: valid`);
});

// a file other than skill.md stood for its folder's skill.md: `validate input.json` printed
// "input.json: valid", `run report.txt` ran the folder's skill, `validate /etc/shadow` walked /etc
test('a file that is not a skill.md is refused by name (exit 2), by validate and by run', async (t) => {
  const { env, cleanup } = tempCliEnv('sc-validate-');
  t.after(cleanup);
  for (const argv of [['validate', 'examples/blog_writer/input.json'], ['run', 'examples/summarize/report.txt', '--input', 'examples/summarize/input.json']]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, new RegExp(`^stagecraft: ${argv[1].replace(/[.]/g, '\\.')} is not a skill\\.md; pass a bundle folder or its skill\\.md\\n`));
    assert.equal(r.out, '');
  }
  const file = await runCli(['validate', 'examples/blog_writer/skill.md']);
  assert.equal(file.code, 0, file.err);
});

test("a step's function that its module never names is a warning: the skill stays valid", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-validate-fn-'));
  writeFileSync(
    path.join(dir, 'skill.md'),
    '---\nname: fn\nentry: draft\ngraph:\n  draft: []\nfinal_output: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - type: python\n      module: ./s.py\n      function: nothere\n---\nbody\n',
  );
  writeFileSync(path.join(dir, 's.py'), 'def there(value):\n    return value\n');
  const r = io();
  assert.equal(await validateCommand([dir], r.io), 0);
  assert.equal(r.err[0], `${path.join(dir, 'skill.md')}:12:17: warning: The python function \`nothere\` is not defined in the module \`./s.py\`: the name occurs nowhere in it. Define it there (\`def nothere(value):\`), or fix the name. [postprocessor.steps[0].function]`);
  assert.equal(r.err.at(-1), `${path.join(dir, 'skill.md')}: valid (1 warning)`);
});
