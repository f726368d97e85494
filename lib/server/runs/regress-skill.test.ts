// regress runs a skill's postprocessor code again, over a scratch workspace the host removes after:
// whatever that code made there (a tree nested thousands of folders deep) must not fail the check
// nor stay on disk. Real python steps, a real run, then regress.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
`,
);

test('a postprocessor step that nests 3,000 folders in the scratch workspace: regress still answers, and the scratch goes', async () => {
  const host = memoryHost({ cwd: root });
  const run = await startSkillRun(host, { bundle, input: {} });
  assert.equal(run.status, 'completed', JSON.stringify(run.error));
  const view = await regressSkill(host, 'deep');
  assert.equal(view.checked, 1);
  assert.deepEqual(view.changed, []);
  const left = readdirSync(host.workspacesDir).filter((n) => n.startsWith('regress-'));
  assert.deepEqual(left, [], 'the scratch workspace was left on disk');
  assert.ok(existsSync(path.join(host.workspacesDir, run.runId)));
});
