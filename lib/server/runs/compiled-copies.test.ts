// A copy's compile stands in for its folder's only when the folder's would find the same: the
// copy's plan is reused for a folder whose files are all there, and never when the copy was not
// compiled, when a file it found is gone from the folder, or when the skill names a run_skill target
// (the folder's compile looks for it on disk); a warm run whose folder lost a module after the warm
// is refused as the folder's compile refuses it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { SkillValidationError } from '../../kernel/errors';
import { bundleHash } from '../../store/skills';
import { readBundleDir } from '../skills/bundle-dir';
import { materializeVersion } from '../skills/materialize';
import { memoryHost } from '../testing';
import { checkedFromCopy, compileCopy } from './compiled-copies';
import { startSkillRun } from './start-run';
import { warmSkillRun } from './warm-run';

const root = mkdtempSync(path.join(tmpdir(), 'sc-compiled-copies-'));
after(() => rmSync(root, { recursive: true, force: true }));
const bundlesDir = path.join(root, 'bundles');

const skill = (name: string, steps: string) =>
  `---\nname: ${name}\nentry: a\ngraph:\n  a: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n${steps}\n---\nGo.\n`;
const NODE_STEP = '    - { type: node, module: ./steps.mjs, function: go }';

function bundle(name: string, text: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'skill.md'), text);
  writeFileSync(path.join(dir, 'steps.mjs'), 'export function go(v) { return v; }\n');
  return dir;
}

/** the folder read, its copy made and compiled: what warm-run.ts does before the store opens */
function compiledCopyOf(dir: string) {
  const { files } = readBundleDir(dir);
  const copyDir = materializeVersion(bundlesDir, { hash: bundleHash(files), files });
  const shown = path.join(dir, 'skill.md');
  return { files, copyDir, shown, plan: compileCopy(files, copyDir, shown) };
}

describe('checkedFromCopy', () => {
  test("a folder whose files are all there is checked by its copy's compile: the same plan, not a second compile", () => {
    const dir = bundle('same', skill('same', NODE_STEP));
    const { copyDir, shown, plan } = compiledCopyOf(dir);
    assert.equal(plan.bundleDir, copyDir);
    assert.equal(checkedFromCopy(copyDir, dir, shown), plan);
  });

  test('no copy compiled (or another shown file): null, the folder is compiled', () => {
    const dir = bundle('uncompiled', skill('uncompiled', NODE_STEP));
    const { files } = readBundleDir(dir);
    const copyDir = materializeVersion(bundlesDir, { hash: bundleHash(files), files });
    assert.equal(checkedFromCopy(copyDir, dir, path.join(dir, 'skill.md')), null);
    compileCopy(files, copyDir, 'skill.md');
    assert.equal(checkedFromCopy(copyDir, dir, path.join(dir, 'skill.md')), null, 'compiled for another shown file');
  });

  test('a module gone from the folder since the copy was compiled: null', () => {
    const dir = bundle('module-gone', skill('module_gone', NODE_STEP));
    const { copyDir, shown } = compiledCopyOf(dir);
    unlinkSync(path.join(dir, 'steps.mjs'));
    assert.equal(checkedFromCopy(copyDir, dir, shown), null);
    mkdirSync(path.join(dir, 'steps.mjs')); // a folder by that name is no module either
    assert.equal(checkedFromCopy(copyDir, dir, shown), null);
  });

  test('a run_skill target (looked for beside the folder, on disk): null', () => {
    const dir = bundle('calls', skill('calls', `${NODE_STEP}\n    - { type: run_op, op: run_skill, args: { skill: elsewhere }, into: other }\npermissions:\n  ops: [run_skill]`));
    const { copyDir, shown, plan } = compiledCopyOf(dir);
    assert.ok(plan, "the copy's compile takes any skill.md as there");
    assert.equal(checkedFromCopy(copyDir, dir, shown), null);
  });
});

test("a warm run whose folder lost its module after the warm is refused, as the folder's compile refuses it", async () => {
  const dir = bundle('warm-gone', skill('warm_gone', NODE_STEP));
  const host = memoryHost({ cwd: root });
  const warm = warmSkillRun({ STAGECRAFT_DATA_DIR: path.dirname(host.bundlesDir), STAGECRAFT_SANDBOX: 'off' }, root, dir);
  assert.ok(warm);
  try {
    unlinkSync(path.join(dir, 'steps.mjs'));
    await assert.rejects(
      startSkillRun(host, { bundle: dir, input: {}, runId: warm.runId, sandbox: warm.sandbox, read: warm.read }),
      (e: unknown) => e instanceof SkillValidationError && e.diagnostics.some((d) => d.rule === 'module_not_found' && d.message.includes(dir)),
    );
  } finally {
    await warm.discard();
  }
});
