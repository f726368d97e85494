import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeBundle } from '@/lib/skill/analyze-bundle';
import { failedMarkOf, isStagePoint } from './failed-node';

const SKILL = `---
name: marked
entry: draft
graph: { draft: [] }
output_schema: { type: object }
phases:
  draft:
    preprocessor:
      steps:
        - { type: validate, schema: { type: object } }
        - { type: validate, schema: { type: object } }
capabilities:
  - { name: lint, stage: post-model, uses: "builtin:tool_result_budget", with: { max_chars: 10 } }
postprocessor:
  steps:
    - { type: validate, schema: { type: object } }
    - type: iterate
      over: items
      into: out
      steps:
        - { type: validate, schema: { type: object } }
        - { type: validate, schema: { type: object } }
---
## draft
Write.
`;

test("a run's failure point is the diagram's node and item: a step, a nested step, a preprocessor step, a stage in its phase", () => {
  const model = analyzeBundle({ 'skill.md': SKILL }).diagram;
  assert.ok(model, 'the skill draws');
  const f = (at: string, phase: string | null = null) => failedMarkOf({ runId: 'r', at, phase }, model);
  assert.deepEqual(f('__post__/0'), { runId: 'r', at: '__post__/0', nodeId: 'post:0', itemId: null });
  assert.deepEqual(f('__post__/1/3/1'), { runId: 'r', at: '__post__/1/3/1', nodeId: 'post:1', itemId: 'post:1/1' });
  assert.deepEqual(f('draft/pre/1'), { runId: 'r', at: 'draft/pre/1', nodeId: 'phase:draft', itemId: 'pre:draft:1' });
  assert.deepEqual(f('draft#2/pre/0'), { runId: 'r', at: 'draft#2/pre/0', nodeId: 'phase:draft', itemId: 'pre:draft:0' });
  assert.deepEqual(f('lint/lint', 'draft'), { runId: 'r', at: 'lint/lint', nodeId: 'phase:draft', itemId: 'cap:0' });
  // the phase unknown (or gone from the text): the stage alone
  assert.deepEqual(f('lint/lint'), { runId: 'r', at: 'lint/lint', nodeId: null, itemId: 'cap:0' });
  // a point the text no longer has marks nothing
  assert.equal(f('__post__/7'), null);
  assert.equal(f('gone/pre/0'), null);
  assert.equal(f('nolonger/here', 'elsewhere'), null);
  assert.equal(failedMarkOf(null, model), null);
  assert.equal(failedMarkOf({ runId: 'r', at: '__post__/0', phase: null }, null), null);
});

test('a stage failure point is told from a step position', () => {
  assert.equal(isStagePoint('lint/check'), true);
  assert.equal(isStagePoint('__post__/2'), false);
  assert.equal(isStagePoint('draft/pre/0'), false);
  assert.equal(isStagePoint('draft#2/pre/1'), false);
  // a phase its model contract stopped, or a model turn that did not come: no stage to look up
  for (const at of ['draft', 'draft#2', 'draft/r3/model', 'draft#2/r1/model', '__post__']) assert.equal(isStagePoint(at), false, at);
});

test('a run stopped in a phase with no failed step marks the phase card alone, even where a capability shares its name', () => {
  const model = analyzeBundle({ 'skill.md': SKILL.replace('graph: { draft: [] }', 'graph: { draft: [lint], lint: [] }').replace('## draft\nWrite.\n', '## draft\nWrite.\n\n## lint\nCheck.\n') }).diagram;
  assert.ok(model, 'the skill draws');
  const f = (at: string) => failedMarkOf({ runId: 'r', at, phase: null }, model);
  assert.deepEqual(f('draft'), { runId: 'r', at: 'draft', nodeId: 'phase:draft', itemId: null });
  assert.deepEqual(f('draft#2/r3/model'), { runId: 'r', at: 'draft#2/r3/model', nodeId: 'phase:draft', itemId: null });
  assert.deepEqual(f('lint'), { runId: 'r', at: 'lint', nodeId: 'phase:lint', itemId: null });
  assert.equal(f('__post__'), null);
  assert.equal(f('gone'), null);
});
