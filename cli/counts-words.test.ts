// What the CLI prints counted its things as `1 steps`, `1 error(s)`, `1 run(s)`: a count says its noun
// as the number has it (lib/kernel/plural.ts), for validate's totals and push's and pull's files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { replayCounts } from './print';

const { dir: root, env, cleanup } = tempCliEnv('sc-counts-words-');
after(cleanup);

const ONE_FILE_SKILL = '---\nname: greeter\nentry: greet\ngraph:\n  greet: []\noutput_schema:\n  type: object\n  properties: { greeting: { type: string } }\n  required: [greeting]\n---\nYou write one-line greetings.\n\n## greet\nGreet the person named in the input.\n';

test('validate says 1 error and 0 warnings, not error(s)', async () => {
  const dir = path.join(root, 'bad');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'skill.md'), '---\nname: bad\nentry: draft\ngraph:\n  draft: []\nfinal_output: post\nartifacts:\n  post: { type: object }\nphasez: {}\n---\nbody\n');
  const r = await runCli(['validate', dir], { env });
  assert.equal(r.code, 1);
  assert.match(r.err, /skill\.md: 1 error, 0 warnings$/m);
  assert.doesNotMatch(r.err, /\(s\)/);
});

test('push and pull of a one-file bundle say 1 file', async () => {
  const dir = path.join(root, 'greeter');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'skill.md'), ONE_FILE_SKILL);
  const pushed = await runCli(['push', dir], { env });
  assert.equal(pushed.code, 0, pushed.err);
  assert.match(pushed.out, /^greeter: saved as version [0-9a-f]{12} \(1 file\)$/m);
  const pulled = await runCli(['pull', 'greeter', path.join(root, 'out')], { env });
  assert.equal(pulled.code, 0, pulled.err);
  assert.match(pulled.out, /wrote version [0-9a-f]{12} \(1 file\) to /);
});

test("a replay's line counts 1 step, and thousands with commas", () => {
  assert.equal(replayCounts({ compared: 1, answered: 1, executed: 0 }), '1 step compared, 1 answered from the recording, 0 run again');
  assert.equal(replayCounts({ compared: 1200, answered: 1000, executed: 200 }), '1200 steps compared, 1000 answered from the recording, 200 run again');
});
