import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scriptPhaseGap } from './script-phases';

const script = (...phases: (string | null)[]) => `turns:\n${phases.map((p) => `  - ${p ? `phase: ${p}\n    ` : ''}finish: { ok: true }\n`).join('')}`;

test("a script with no turns for the entry phase: a run fails at once, said with the phases it has", () => {
  assert.equal(
    scriptPhaseGap(script('answer'), 'model.yaml', { entry: 'collect', phases: ['collect'] }),
    'model.yaml has no turns for the entry phase `collect` (only for `answer`): a run with it fails at its first model turn. Add turns with `phase: collect` to model.yaml, or pick another model.',
  );
});

test('turns for a phase the skill does not have, the entry served: said as turns never reached', () => {
  assert.equal(scriptPhaseGap(script('draft', 'old_review'), 'model.yaml', { entry: 'draft', phases: ['draft', 'review'] }), 'model.yaml has turns for `old_review`, not a phase of this skill: a run never reaches them.');
});

test('nothing to say: every phase named is the skill’s, a phase-less block serves the entry, a malformed script, no graph', () => {
  assert.equal(scriptPhaseGap(script('draft', 'review'), 'model.yaml', { entry: 'draft', phases: ['draft', 'review'] }), null);
  assert.equal(scriptPhaseGap(script(null, 'review'), 'model.yaml', { entry: 'draft', phases: ['draft', 'review'] }), null);
  assert.equal(scriptPhaseGap('turns: [1, 2', 'model.yaml', { entry: 'draft', phases: ['draft'] }), null);
  assert.equal(scriptPhaseGap(script('answer'), 'model.yaml', { entry: null, phases: [] }), null);
});
