/**
 * The diagram model: accessible names exactly as the acceptance tests say
 * them, invalid parts marked from the diagnostics, a model for any mapping
 * however wrong (and none without one), edges, and the cursor ↔ node links.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { analyzeBundle } from './analyze-bundle';
import type { BundleFiles } from './bundle';
import type { DiagramModel, PhaseDiagramNode, StepDiagramNode } from './diagram';
import { itemsOf, nodeAt } from './diagram';
import { apply, edit } from './fixtures/mutants';

const FILES = { 'steps.py': 'def f(v):\n  return v\n' };

const TEXT = `---
name: pipeline
entry: triage
graph:
  triage: [answer, escalate]
  answer: []
  escalate: []
final_output: reply
artifacts:
  reply: { type: object, properties: { text: { type: string } }, required: [text] }
phases:
  triage:
    input_schema: { type: object, properties: { question: { type: string } } }
    output_schema:
      type: object
      properties: { next: { enum: [answer, escalate] } }
      required: [next]
    tools: [file/read]
    max_rounds: 3
    preprocessor:
      steps:
        - type: run_op
          op: file/read
          args: { path: faq.txt }
          into: faq
          on_error: empty
capabilities:
  - name: redact
    stage: finalize
    uses: builtin:pii_redact
  - name: budget
    stage: post-tool
    uses: builtin:tool_result_budget
permissions:
  ops: [file/read]
  effects: [artifact.write, fs.read]
postprocessor:
  output_schema: reply
  steps:
    - type: iterate
      over: items
      into: out
      on_error: skip
      steps:
        - type: python
          module: ./steps.py
          function: f
          pure: true
    - type: python
      module: ./steps.py
      function: f
    - type: validate
      schema: reply
---
Shared.

## triage

Route the question.
`;

function diagram(text: string, files: BundleFiles = FILES): DiagramModel {
  const d = analyzeBundle({ ...files, 'skill.md': text }).diagram;
  assert.ok(d, 'expected a diagram');
  return d;
}
const labels = (m: DiagramModel) => m.nodes.map((n) => n.label);
const phase = (m: DiagramModel, name: string) => m.nodes.find((n) => n.id === `phase:${name}`) as PhaseDiagramNode;
const step = (m: DiagramModel, id: string) => m.nodes.find((n) => n.id === id) as StepDiagramNode;
/** line:column of the first occurrence of `needle` in `text` (1-based) */
function at(text: string, needle: string, offset = 0): [number, number] {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `no ${needle}`);
  const before = text.slice(0, i + offset).split('\n');
  return [before.length, before[before.length - 1].length + 1];
}

describe('diagram names', () => {
  const m = diagram(TEXT);

  it('names phases, postprocessor steps by index and the caller contract exactly', () => {
    assert.deepEqual(labels(m), [
      'phase triage (entry)',
      'phase answer',
      'phase escalate',
      'step 0 iterate',
      'step 1 python',
      'step 2 validate',
      'caller contract',
    ]);
    assert.deepEqual(
      step(m, 'post:0').steps?.map((s) => [s.id, s.label]),
      [['post:0/0', 'step 0/0 python']],
    );
  });

  it('preprocessor steps carry their phase, so they never collide with postprocessor steps', () => {
    assert.deepEqual(
      phase(m, 'triage').preprocessor.map((s) => [s.id, s.label, s.detail, s.onError, s.into]),
      [['pre:triage:0', 'triage preprocessor #0 run_op', 'op file/read', 'empty', 'faq']],
    );
  });

  it("itemsOf: the items drawn inside a node (a phase's preprocessor and stages, a step's nested steps)", () => {
    const triage = itemsOf(phase(m, 'triage')).map((i) => i.id);
    assert.ok(triage.includes('pre:triage:0'));
    assert.deepEqual(itemsOf(step(m, 'post:0')).map((i) => i.id), ['post:0/0']);
    assert.deepEqual(itemsOf(m.nodes.find((n) => n.kind === 'contract')!), []);
    for (const n of m.nodes) for (const i of itemsOf(n)) assert.ok(!m.nodes.some((o) => o.id === i.id), `${i.id} is an item, not a node`);
  });

  it('a stage whose effects are not granted is refused, and says which', () => {
    assert.deepEqual(
      m.stages.map((s) => [s.id, s.label, s.refused, s.missing]),
      [
        ['cap:0', 'stage redact on finalize', false, []],
        ['cap:1', 'stage budget on post-tool refused: transcript.write not granted', true, ['transcript.write']],
      ],
    );
    // the refusal is a warning: listed, not invalid
    assert.deepEqual(m.stages[1].problems.map((p) => p.rule), ['effect_not_granted']);
    assert.equal(m.stages[1].invalid, false);
  });

  it('every phase shows the same stages, by rung in ladder order', () => {
    for (const name of ['triage', 'answer', 'escalate']) {
      assert.deepEqual(
        phase(m, name).stages.map((g) => [g.rung, g.items.map((s) => s.id)]),
        [
          ['post-tool', ['cap:1']],
          ['finalize', ['cap:0']],
        ],
      );
    }
  });

  it('phases carry tools, contracts, max_rounds and whether they have a prompt', () => {
    const t = phase(m, 'triage');
    assert.deepEqual([t.tools, t.maxRounds, t.hasPrompt, t.isEntry, t.isTerminal, t.successors], [['file/read'], 3, true, true, false, ['answer', 'escalate']]);
    assert.deepEqual(t.input, { kind: 'inline', summary: 'object: question?' });
    assert.deepEqual(t.output, { kind: 'inline', summary: 'object: next' });
    const a = phase(m, 'answer');
    assert.deepEqual([a.maxRounds, a.hasPrompt, a.isTerminal], [8, false, true]);
    assert.deepEqual(a.input, { kind: 'any' });
    assert.deepEqual(a.output, { kind: 'artifact', name: 'reply', summary: 'object: text' });
    const c = m.nodes.find((n) => n.id === 'contract');
    assert.deepEqual(c?.kind === 'contract' && c.contract, { kind: 'artifact', name: 'reply', summary: 'object: text' });
  });

  it('steps say what they run, their on_error and purity', () => {
    assert.deepEqual(
      m.nodes.filter((n) => n.kind === 'step').map((n) => [n.id, n.detail, n.onError, n.into, n.pure]),
      [
        ['post:0', 'over items → out', 'skip', 'out', true],
        ['post:1', 'steps.py : f', 'fail', null, false],
        ['post:2', 'schema reply', 'fail', null, true],
      ],
    );
  });

  it('edges: transitions (labelled by next when branching), finish into the chain, the chain into the contract', () => {
    assert.deepEqual(
      m.edges.map((e) => `${e.kind} ${e.source} -> ${e.target}${e.label ? ` [${e.label}]` : ''}`),
      [
        'transition phase:triage -> phase:answer [next = answer]',
        'transition phase:triage -> phase:escalate [next = escalate]',
        'finish phase:answer -> post:0',
        'finish phase:escalate -> post:0',
        'chain post:0 -> post:1',
        'chain post:1 -> post:2',
        'chain post:2 -> contract',
      ],
    );
  });

  it('without a postprocessor, terminal phases finish in the contract, which is the LLM contract', () => {
    const text = TEXT.slice(0, TEXT.indexOf('postprocessor:')) + '---\n';
    const d = diagram(text);
    assert.deepEqual(
      d.edges.filter((e) => e.kind !== 'transition').map((e) => `${e.source} -> ${e.target}`),
      ['phase:answer -> contract', 'phase:escalate -> contract'],
    );
    const c = d.nodes[d.nodes.length - 1];
    assert.equal(c.label, 'caller contract');
    assert.deepEqual(c.span, { line: 8, column: 1, endLine: 8, endColumn: 13 });
  });
});

describe('invalid parts', () => {
  it('a step whose module is not in the bundle is invalid; its neighbours are not', () => {
    const m = diagram(TEXT.replace('      module: ./steps.py\n      function: f\n    - type: validate', '      module: ./missing.py\n      function: f\n    - type: validate'));
    assert.deepEqual(labels(m).slice(3), ['step 0 iterate', 'step 1 python invalid', 'step 2 validate', 'caller contract']);
    assert.deepEqual(step(m, 'post:1').problems.map((p) => [p.rule, p.path]), [['module_not_found', 'postprocessor.steps[1].module']]);
  });

  it('a nested step marks itself and the iterate step holding it', () => {
    const m = diagram(TEXT.replace('          module: ./steps.py', '          module: ./gone.py'));
    assert.equal(step(m, 'post:0').label, 'step 0 iterate invalid');
    assert.equal(step(m, 'post:0').steps?.[0].label, 'step 0/0 python invalid');
    assert.equal(step(m, 'post:1').label, 'step 1 python');
  });

  it('a preprocessor step marks itself and its phase', () => {
    const m = diagram(TEXT.replace('op: file/read\n', 'op: file/write\n'));
    const t = phase(m, 'triage');
    assert.equal(t.label, 'phase triage (entry) invalid');
    assert.equal(t.preprocessor[0].label, 'triage preprocessor #0 run_op invalid');
  });

  it('a branching phase without `next`, and an unreachable phase (drawn after the reachable ones)', () => {
    const text = TEXT.replace(
      '      properties: { next: { enum: [answer, escalate] } }\n      required: [next]\n',
      '      properties: { text: { type: string } }\n',
    ).replace('  escalate: []\n', '  escalate: []\n  orphan: [answer]\n');
    const m = diagram(text);
    assert.deepEqual(labels(m).slice(0, 4), ['phase triage (entry) invalid', 'phase answer', 'phase escalate', 'phase orphan invalid']);
    assert.equal(phase(m, 'orphan').isReachable, false);
    assert.deepEqual(phase(m, 'orphan').problems.map((p) => p.rule), ['unreachable_phase']);
  });

  it('a successor named only in the graph is a phase; the mention marks both ends', () => {
    const m = diagram(TEXT.replace('triage: [answer, escalate]', 'triage: [answer, Escalate now]'));
    assert.ok(labels(m).includes('phase Escalate now invalid'));
    assert.equal(phase(m, 'triage').invalid, true);
  });

  it('a broken artifact marks every node whose contract names it', () => {
    const m = diagram(TEXT.replace('reply: { type: object,', 'reply: { type: objet,'));
    assert.deepEqual(
      m.nodes.filter((n) => n.invalid).map((n) => n.id),
      ['phase:answer', 'phase:escalate', 'post:2', 'contract'],
    );
  });

  it('`entry` naming no phase: no entry, and the finding is unplaced', () => {
    const m = diagram(TEXT.replace('entry: triage', 'entry: triag'));
    assert.equal(m.entry, null);
    assert.deepEqual(labels(m).slice(0, 3), ['phase triage', 'phase answer', 'phase escalate']);
    assert.ok(m.nodes.filter((n) => n.kind === 'phase').every((n) => n.kind === 'phase' && !n.isReachable));
    assert.deepEqual(m.unplaced.map((p) => [p.rule, p.path]), [['unknown_phase', 'entry']]);
    // the diagram is told why every phase is greyed
    assert.deepEqual(m.entryAmiss, { named: 'triag' });
    assert.deepEqual(diagram(TEXT.replace('entry: triage\n', '')).entryAmiss, { named: null });
    assert.deepEqual(diagram(TEXT.replace('entry: triage', 'entry: [triage]')).entryAmiss, { named: '["triage"]' });
    assert.deepEqual(diagram(TEXT.replace('entry: triage', 'entry: 5')).entryAmiss, { named: '5' });
    assert.equal(diagram(TEXT).entryAmiss, null);
  });

  it('a missing LLM contract marks the terminal phases (and the contract, without a postprocessor)', () => {
    const text = TEXT.replace('final_output: reply\n', '').slice(0, TEXT.indexOf('postprocessor:') - 'final_output: reply\n'.length) + '---\n';
    const m = diagram(text);
    assert.deepEqual(
      m.nodes.filter((n) => n.invalid).map((n) => n.id),
      ['phase:answer', 'phase:escalate', 'contract'],
    );
    const c = m.nodes[m.nodes.length - 1];
    assert.deepEqual(c.kind === 'contract' && c.contract, { kind: 'none' });
  });

  it('a capability problem marks that stage in every phase', () => {
    const m = diagram(TEXT.replace('uses: builtin:pii_redact', 'uses: builtin:pii_redcat'));
    assert.equal(m.stages[0].label, 'stage redact on finalize invalid');
    assert.equal(phase(m, 'answer').stages[1].items[0].label, 'stage redact on finalize invalid');
    assert.equal(phase(m, 'answer').invalid, false);
  });

  it('a graph with no terminal phase marks the caller contract, which no phase reaches (the finding was unplaced: the diagram said nothing)', () => {
    const m = diagram(TEXT.replace('  answer: []\n  escalate: []\n', '  answer: [triage]\n  escalate: [triage]\n'));
    assert.deepEqual(m.unplaced.map((p) => p.rule), []);
    const c = m.nodes.find((n) => n.id === 'contract')!;
    assert.equal(c.invalid, true);
    assert.match(c.problems.map((p) => p.message).join(' '), /^No phase reachable from `triage` is terminal/);
  });

  it('body findings are unplaced', () => {
    const m = diagram(TEXT.replace('## triage', '## traige'));
    assert.deepEqual(m.unplaced.map((p) => p.rule), ['heading_not_phase']);
  });
});

describe('a model for any mapping, none without one', () => {
  it('a YAML syntax error, no frontmatter, or a frontmatter that is not a mapping: null', () => {
    for (const text of ['---\nname: [x\n---\n', 'no frontmatter', '---\n- a\n- b\n---\n', '---\n---\n']) {
      assert.equal(analyzeBundle({ 'skill.md': text }).diagram, null, text);
    }
  });

  it('a skill without `graph` is still drawn: its contract and postprocessor', () => {
    const m = diagram(TEXT.replace(/graph:\n(  .*\n)+/, ''));
    assert.deepEqual(labels(m), ['step 0 iterate', 'step 1 python', 'step 2 validate', 'caller contract']);
    assert.equal(m.skill, 'pipeline');
    assert.equal(m.entry, null);
  });

  it('steps that are not mappings and unknown step types are drawn, marked invalid', () => {
    const m = diagram(TEXT.replace('    - type: validate\n      schema: reply\n', '    - just text\n    - type: llm\n'));
    assert.deepEqual(labels(m).slice(3), ['step 0 iterate', 'step 1 python', 'step 2 untyped invalid', 'step 3 llm invalid', 'caller contract']);
  });

  it('mutated skills never throw, and every model hangs together', () => {
    const blog = readFileSync(new URL('./fixtures/blog_writer/skill.md', import.meta.url), 'utf8');
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        const text = edits.reduce(apply, blog);
        const { diagram: m } = analyzeBundle({ 'skill.md': text, 'rendering.py': '' });
        if (!m) return;
        const ids = new Set(m.nodes.map((n) => n.id));
        for (const e of m.edges) assert.ok(ids.has(e.source) && ids.has(e.target), `dangling edge ${e.id}`);
        const items = new Set([...ids, ...m.stages.map((s) => s.id)]);
        const addItems = (steps: { id: string; steps?: unknown[] }[]) =>
          steps.forEach((s) => {
            items.add(s.id);
            addItems((s.steps ?? []) as { id: string }[]);
          });
        for (const n of m.nodes) {
          if (n.kind === 'phase') addItems(n.preprocessor);
          if (n.kind === 'step') addItems(n.steps ?? []);
          assert.equal(n.invalid, n.problems.some((p) => p.severity === 'error'));
          assert.equal(n.label.endsWith(' invalid'), n.invalid, n.label);
        }
        for (const r of m.regions) assert.ok(items.has(r.id), `region of an unknown node ${r.id}`);
        const lines = text.split('\n').length;
        for (let line = 1; line <= lines; line += 3) {
          const id = nodeAt(m, line, 3);
          assert.ok(id === null || items.has(id));
        }
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

describe('text ↔ picture', () => {
  const m = diagram(TEXT);

  it('a node’s span is its declaration: the `phases.P` key, else the `graph.P` key; a step’s list item', () => {
    assert.deepEqual(phase(m, 'triage').span, { line: 12, column: 3, endLine: 12, endColumn: 9 });
    assert.deepEqual(phase(m, 'answer').span, { line: 6, column: 3, endLine: 6, endColumn: 9 });
    const [stepLine] = at(TEXT, '- type: validate');
    assert.deepEqual(step(m, 'post:2').span, { line: stepLine, column: 7, endLine: stepLine, endColumn: 21 });
    const [capLine] = at(TEXT, '- name: budget');
    assert.deepEqual(m.stages[1].span, { line: capLine, column: 5, endLine: capLine, endColumn: 17 });
  });

  it('nodeAt gives the innermost node at a cursor', () => {
    const where = (needle: string, offset = 0) => nodeAt(m, ...at(TEXT, needle, offset));
    assert.equal(where('    max_rounds: 3'), 'phase:triage'); // in the indentation of a line of phases.triage
    assert.equal(where('max_rounds: 3', 12), 'phase:triage');
    assert.equal(where('args: { path: faq.txt }', 8), 'pre:triage:0');
    assert.equal(where('        - type: run_op', 8), 'pre:triage:0'); // on the list marker
    assert.equal(where('triage: [answer'), 'phase:triage');
    assert.equal(where('[answer, escalate]', 1), 'phase:answer'); // a successor names its phase
    assert.equal(where('    - type: validate', 12), 'post:2');
    assert.equal(where('      schema: reply'), 'post:2');
    assert.equal(where('          function: f', 12), 'post:0/0');
    assert.equal(where('  output_schema: reply', 5), 'contract');
    assert.equal(where('    uses: builtin:tool_result_budget'), 'cap:1');
    assert.equal(where('name: pipeline'), null);
    assert.equal(where('Route the question.'), null);
  });
});
