// regress runs a skill's postprocessor code again, over a scratch workspace the host removes after:
// whatever that code made there (a tree nested thousands of folders deep) must not fail the check
// nor stay on disk. Real python steps, a real run, then regress.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { memoryHost } from '../testing';
import { regressSkill } from './regress-skill';
import { startSkillRun } from './start-run';

const root = mkdtempSync(path.join(tmpdir(), 'sc-regress-'));
after(() => rmSync(root, { recursive: true, force: true }));
const bundle = path.join(root, 'deep');
mkdirSync(bundle);
writeFileSync(
  path.join(bundle, 'skill.md'),
  `---
name: deep
entry: go
graph:
  go: []
output_schema: { type: object }
postprocessor:
  output_schema: { type: object }
  steps:
    - type: python
      module: ./deep.py
      function: deep
---
Go.
`,
);
writeFileSync(path.join(bundle, 'model.yaml'), 'turns:\n  - finish: {}\n');
writeFileSync(
  path.join(bundle, 'deep.py'),
  `import os
def deep(value):
    top = os.getcwd()
    if not os.path.basename(top).startswith("regress-"):
        return {"deep": 3000}  # the run itself has a quota walk, which refuses such a tree: only regress gets it
    for _ in range(3000):
        os.mkdir("d")
        os.chdir("d")
    os.chdir(top)
    return {"deep": 3000}

def many(value):
    if os.path.basename(os.getcwd()).startswith("regress-"):
        for i in range(300):
            open(f"f{i}.txt", "w").write("x")
    return {"many": True}
`,
);

test('a postprocessor step that nests 3,000 folders in the scratch workspace: regress still answers, and the scratch goes', async () => {
  const host = memoryHost({ cwd: root });
  const run = await startSkillRun(host, { bundle, input: {} });
  assert.equal(run.status, 'completed', JSON.stringify(run.error));
  const view = await regressSkill(host, 'deep');
  assert.equal(view.checked, 1);
  // the scratch has a run's quota, whose walk refuses folders 128 deep: the step fails there
  assert.match(JSON.stringify(view.changed[0]?.now.error), /nested folders more than 128 levels deep/);
  const left = readdirSync(host.workspacesDir).filter((n) => n.startsWith('regress-'));
  assert.deepEqual(left, [], 'the scratch workspace was left on disk');
  assert.ok(existsSync(path.join(host.workspacesDir, run.runId)));
});

test('the scratch workspace has the quota a run’s workspace has: a step past it fails there as it would in a run', async () => {
  const many = path.join(root, 'many');
  mkdirSync(many);
  writeFileSync(path.join(many, 'deep.py'), readFileSync(path.join(bundle, 'deep.py')));
  writeFileSync(path.join(many, 'model.yaml'), 'turns:\n  - finish: {}\n');
  writeFileSync(path.join(many, 'skill.md'), readFileSync(path.join(bundle, 'skill.md'), 'utf8').replace('name: deep', 'name: many').replace('function: deep', 'function: many'));
  const host = memoryHost({ cwd: root, env: { STAGECRAFT_WORKSPACE_MAX_FILES: '100' } });
  const run = await startSkillRun(host, { bundle: many, input: {} });
  assert.equal(run.status, 'completed', JSON.stringify(run.error));
  const view = await regressSkill(host, 'many');
  assert.equal(view.checked, 1);
  assert.equal(view.changed.length, 1, 'the step wrote 300 files past a quota of 100 and passed');
  assert.match(JSON.stringify(view.changed[0].now.error), /more than 100 files.*STAGECRAFT_WORKSPACE_MAX_FILES|STAGECRAFT_WORKSPACE_MAX_FILES/);
});

test("a step that now raises: the check names the bundle's file as the run page does (sanitize.py:…), never the server's folders", async () => {
  const dir = path.join(root, 'raises');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'model.yaml'), 'turns:\n  - finish: {}\n');
  writeFileSync(path.join(dir, 'skill.md'), readFileSync(path.join(bundle, 'skill.md'), 'utf8').replace('name: deep', 'name: raises').replace('./deep.py', './sanitize.py').replace('function: deep', 'function: sanitize'));
  writeFileSync(
    path.join(dir, 'sanitize.py'),
    `import os
def sanitize(value):
    if os.path.basename(os.getcwd()).startswith("regress-"):
        return value["missing"]
    return {"clean": True}
`,
  );
  const host = memoryHost({ cwd: root });
  const run = await startSkillRun(host, { bundle: dir, input: {} });
  assert.equal(run.status, 'completed', JSON.stringify(run.error));
  const view = await regressSkill(host, 'raises');
  assert.equal(view.changed.length, 1);
  const shown = JSON.stringify(view.changed[0]);
  assert.match(shown, /KeyError/);
  assert.match(shown, /sanitize\.py/);
  // no absolute path to the bundle copy it ran from (…/bundles/<hash>/sanitize.py)
  assert.doesNotMatch(shown, /\/[^"\s]*\/sanitize\.py/, shown);
  assert.doesNotMatch(shown, new RegExp(tmpdir().replace(/[/.]/g, '\\$&')));
});
