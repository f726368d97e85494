// A bundle run's first worker started before the store is open (warm-run.ts), with real processes:
// the worker is this process's child before any call, the version's copy and the run's workspace are
// where the run will look for them, `discard` stops the worker and removes the unused workspace, and
// what the normal path must report (an invalid skill, no code step) is left to it; the run records
// the files the warm read, not a second read of the folder.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { compileSkill } from '../../skill/compile';
import { bundleHash } from '../../store/skills';
import { readBundleDir } from '../skills/bundle-dir';
import { memoryHost } from '../testing';
import { startSkillRun } from './start-run';
import { firstCodeStep, warmSkillRun } from './warm-run';

const root = mkdtempSync(path.join(tmpdir(), 'sc-warm-run-'));
after(() => rmSync(root, { recursive: true, force: true }));

const skill = (pre: string, post: string) =>
  `---\nname: warmed\nentry: a\ngraph:\n  a: []\noutput_schema: { type: object }\n${pre ? `phases:\n  a:\n    preprocessor:\n      steps:\n${pre}\n` : ''}${post ? `postprocessor:\n  output_schema: { type: object }\n  steps:\n${post}\n` : ''}---\nGo.\n`;

function bundle(name: string, text: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'skill.md'), text);
  writeFileSync(path.join(dir, 'steps.mjs'), 'export function go(v) { return v; }\n');
  writeFileSync(path.join(dir, 'steps.py'), 'def go(v):\n    return v\n');
  writeFileSync(path.join(dir, 'model.yaml'), 'turns:\n  - finish: {}\n');
  return dir;
}

/** the pids of this process's children now */
function children(): number[] {
  const task = `/proc/${process.pid}/task`;
  return readdirSync(task).flatMap((t) => readFileSync(`${task}/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

describe('firstCodeStep', () => {
  for (const [label, pre, post, expected] of [
    ['a preprocessor comes before the postprocessor', '        - { type: python, module: ./steps.py, function: go }', '    - { type: node, module: ./steps.mjs, function: go }', 'python'],
    ['only a postprocessor', '', '    - { type: node, module: ./steps.mjs, function: go }', 'node'],
    ['no code at all', '', '', undefined],
  ] as const) {
    test(label, () => {
      const dir = bundle(`plan-${label.length}`, skill(pre, post));
      const plan = compileSkill(readFileSync(path.join(dir, 'skill.md'), 'utf8'), { file: path.join(dir, 'skill.md'), bundleDir: dir }).plan;
      assert.equal(firstCodeStep(plan)?.type, expected);
    });
  }
});

describe('warmSkillRun', () => {
  const env = { STAGECRAFT_DATA_DIR: path.join(root, 'data'), STAGECRAFT_SANDBOX: 'off' };

  test('the first worker is up before any call, in the sandbox the run will use; discard stops it and removes the workspace', async () => {
    const dir = bundle('node', skill('', '    - { type: node, module: ./steps.mjs, function: go }'));
    const before = new Set(children());
    const warm = warmSkillRun(env, root, dir);
    assert.ok(warm, 'a bundle with a code step is warmed');
    const { files } = readBundleDir(dir);
    assert.ok(existsSync(path.join(root, 'data', 'bundles', bundleHash(files), 'steps.mjs')), 'the copy the run executes from');
    const workspace = path.join(root, 'data', 'workspaces', warm.runId);
    assert.ok(existsSync(workspace), "the run's workspace");
    let started: number[] = [];
    for (let i = 0; i < 400 && started.length === 0; i++) {
      started = children().filter((pid) => !before.has(pid));
      if (!started.length) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(started.length, 1, 'one worker started, before any call');
    await warm.discard();
    assert.deepEqual(children().filter((pid) => !before.has(pid)), [], 'the worker is gone');
    assert.equal(existsSync(workspace), false, 'the unused workspace is removed');
    assert.equal(existsSync(path.join(root, 'data', 'workspaces', '.git-baselines', `${warm.runId}.json`)), false, '…and the record of its .git entries');
  });

  test('the run records the files the warm read (the folder is read once), even if the folder changed since: the ones its sandbox binds', async () => {
    const dir = bundle('changing', skill('', '    - { type: node, module: ./steps.mjs, function: go }'));
    const host = memoryHost({ cwd: root });
    const warm = warmSkillRun({ STAGECRAFT_DATA_DIR: path.dirname(host.bundlesDir), STAGECRAFT_SANDBOX: 'off' }, root, dir);
    assert.ok(warm);
    const warmed = bundleHash(warm.read.files);
    writeFileSync(path.join(dir, 'steps.mjs'), 'export function go(v) { return { ...v, edited: true }; }\n');
    assert.notEqual(bundleHash(readBundleDir(dir).files), warmed, 'the folder changed after the warm');
    const outcome = await startSkillRun(host, { bundle: dir, input: {}, runId: warm.runId, sandbox: warm.sandbox, read: warm.read });
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome));
    assert.equal((await host.skills.getVersion('warmed')).hash, warmed);
    assert.deepEqual(outcome.output, {}, 'the step ran from the warmed copy');
  });

  test('an invalid skill or one without code is left to the normal path', () => {
    assert.equal(warmSkillRun(env, root, bundle('invalid', '---\nname: 12 bad\n---\n')), null);
    assert.equal(warmSkillRun(env, root, bundle('no-code', skill('', ''))), null);
    assert.equal(warmSkillRun(env, root, path.join(root, 'not-there')), null);
  });
});
