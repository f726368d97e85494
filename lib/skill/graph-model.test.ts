/**
 * The drawing model: phases with their transitions, each phase's stages by
 * rung with refused stages flagged, preprocessor lanes, and the postprocessor
 * chain with on_error on every step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSkill } from './compile';
import { BUNDLE_DIR, fakeFileExists } from './fixtures/helpers';
import type { PhaseNode, StageNode, StepNode } from './graph-model';
import { graphModel } from './graph-model';

const TEXT = `---
name: pipeline
entry: triage
graph:
  triage: [answer, escalate]
  answer: []
  escalate: []
final_output: reply
artifacts:
  reply: { type: object, properties: { text: { type: string } } }
phases:
  triage:
    output_schema:
      type: object
      properties: { next: { enum: [answer, escalate] } }
      required: [next]
    preprocessor:
      steps:
        - type: validate
          schema: reply
capabilities:
  - name: redact
    stage: finalize
    uses: builtin:pii_redact
  - name: budget
    stage: post-tool
    uses: builtin:tool_result_budget
permissions:
  effects: [artifact.write]
postprocessor:
  output_schema: reply
  steps:
    - type: iterate
      over: items
      into: out
      on_error: skip
      steps:
        - type: python
          module: ./rendering.py
          function: f
          pure: true
    - type: validate
      schema: reply
---
`;

describe('graphModel', () => {
  const { plan } = compileSkill(TEXT, { file: 'skill.md', bundleDir: BUNDLE_DIR, fileExists: fakeFileExists });
  const model = graphModel(plan);
  const byId = new Map(model.nodes.map((n) => [n.id, n]));

  it('draws the phases in graph order with their transitions; several successors are labelled by next', () => {
    const phases = model.nodes.filter((n): n is PhaseNode => n.kind === 'phase');
    assert.deepEqual(
      phases.map((p) => [p.id, p.isEntry, p.isTerminal, p.order]),
      [
        ['phase:triage', true, false, 0],
        ['phase:answer', false, true, 1],
        ['phase:escalate', false, true, 2],
      ],
    );
    assert.deepEqual(
      model.edges.filter((e) => e.kind === 'transition').map((e) => [e.source, e.target, e.label]),
      [
        ['phase:triage', 'phase:answer', 'next = answer'],
        ['phase:triage', 'phase:escalate', 'next = escalate'],
      ],
    );
  });

  it("puts each phase's stages on their rungs and flags the ones that would be refused", () => {
    const stages = model.nodes.filter((n): n is StageNode => n.kind === 'stage' && n.phase === 'triage');
    assert.deepEqual(
      stages.map((s) => [s.stage, s.rung, s.rungIndex, s.isRefused, s.missingEffects]),
      [
        ['budget', 'post-tool', 3, true, ['transcript.write']],
        ['redact', 'finalize', 4, false, []],
      ],
    );
    assert.match(stages[0].label, /refused: transcript\.write not granted/);
    assert.equal(model.nodes.filter((n) => n.kind === 'stage').length, 6);
  });

  it('gives the preprocessor of a phase its own lane, chained into the phase', () => {
    const pre = byId.get('pre:triage:0') as StepNode;
    assert.equal(pre.kind, 'pre-step');
    assert.equal(pre.label, 'validate reply (on_error: fail)');
    assert.ok(model.edges.some((e) => e.source === 'pre:triage:0' && e.target === 'phase:triage' && e.kind === 'pre-chain'));
  });

  it('draws the postprocessor as its own lane, with on_error per step, fed by every terminal phase', () => {
    const post = model.nodes.filter((n): n is StepNode => n.kind === 'post-step');
    assert.deepEqual(
      post.map((s) => [s.id, s.stepType, s.onError, s.lane]),
      [
        ['post:0', 'iterate', 'skip', 'postprocessor'],
        ['post:1', 'validate', 'fail', 'postprocessor'],
      ],
    );
    assert.equal(post[0].label, 'iterate over items into out (on_error: skip)');
    assert.equal(post[0].pure, true);
    assert.deepEqual(post[0].steps?.map((s) => s.label), ['python rendering.py:f (on_error: fail)']);
    assert.deepEqual(
      model.edges.filter((e) => e.kind === 'finish' || e.kind === 'post-chain').map((e) => e.id),
      ['post:0->post:1', 'phase:answer->post:0', 'phase:escalate->post:0'],
    );
    assert.deepEqual(
      model.lanes.map((l) => l.id),
      ['phases', 'pre:triage', 'stages:triage', 'stages:answer', 'stages:escalate', 'postprocessor'],
    );
  });

  it('is plain data (JSON round-trips) and every edge joins two nodes', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(model)), model);
    for (const e of model.edges) assert.ok(byId.has(e.source) && byId.has(e.target), e.id);
    assert.equal(new Set(model.nodes.map((n) => n.id)).size, model.nodes.length);
  });
});
