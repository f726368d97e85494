// The diagram's layout: cards sized by their rows, no overlaps, and stable —
// an edit that keeps the structure keeps every position; a new node lays the
// picture out again around the entry, which stays put, as do dragged nodes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeBundle } from '@/lib/skill/analyze-bundle';
import type { DiagramModel } from '@/lib/skill/diagram';
import { badgesBelow, layoutAll, layoutSizeOf, sizeOf, stablePositions, structureKey, type Point } from './layout';

const skill = (steps: string[], description = 'x') => `---
name: demo
description: ${description}
entry: draft
graph:
  draft: [review]
  review: []
output_schema: { type: object }
postprocessor:
  output_schema: { type: object }
  steps:
${steps.map((s) => `    - ${s}`).join('\n')}
---
Body.
`;
const modelOf = (text: string, files: Record<string, string> = {}): DiagramModel => analyzeBundle({ 'skill.md': text, ...files }).diagram!;

function overlaps(model: DiagramModel, pos: Map<string, Point>): string[] {
  const boxes = model.nodes.map((n) => ({ id: n.id, ...pos.get(n.id)!, ...layoutSizeOf(n) }));
  const out: string[] = [];
  for (const a of boxes) for (const b of boxes) if (a.id < b.id && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) out.push(`${a.id}/${b.id}`);
  return out;
}

test('an edit that keeps the structure keeps the layout key; a problem coming and going too', () => {
  const a = modelOf(skill(['{ type: validate, schema: { type: object } }']));
  const b = modelOf(skill(['{ type: validate, schema: { type: object } }'], 'another description'));
  assert.equal(structureKey(a), structureKey(b));
  const broken = modelOf(skill(['{ type: node, module: ./missing.mjs, function: f }']));
  const fixed = modelOf(skill(['{ type: node, module: ./missing.mjs, function: f }']), { 'missing.mjs': '' });
  assert.ok(broken.nodes.find((n) => n.id === 'post:0')!.invalid);
  assert.equal(structureKey(broken), structureKey(fixed));
  const step = broken.nodes.find((n) => n.id === 'post:0')!;
  assert.ok(sizeOf(step).height > layoutSizeOf(step).height, 'the problem line is drawn, not laid out');
});

test('a new step is laid out without overlaps; the entry stays where it was; a dragged node stays put', () => {
  const one = modelOf(skill(['{ type: validate, schema: { type: object } }']));
  const before = layoutAll(one);
  assert.deepEqual(overlaps(one, before), []);
  // the user moved the whole picture (the entry at 500, 300) and dragged review aside
  const moved = new Map([...before].map(([id, p]) => [id, { x: p.x + 500, y: p.y + 300 }]));
  moved.set('phase:review', { x: 2000, y: 2000 });
  const two = modelOf(skill(['{ type: validate, schema: { type: object } }', '{ type: validate, schema: { type: object } }']));
  assert.notEqual(structureKey(one), structureKey(two));
  const after = stablePositions(two, moved, new Set(['phase:review']));
  assert.deepEqual(after.get('phase:draft'), moved.get('phase:draft'));
  assert.deepEqual(after.get('phase:review'), { x: 2000, y: 2000 });
  assert.deepEqual(overlaps(two, new Map([...after].filter(([id]) => id !== 'phase:review'))), []);
  assert.ok(after.get('post:1')!.y > after.get('post:0')!.y, 'the chain goes down');
  assert.ok(after.get('contract')!.y > after.get('post:1')!.y, 'and ends in the caller contract');
});

test('a card is as tall as its rows: tools, preprocessor steps and stages add to a phase', () => {
  const plain = modelOf(skill(['{ type: validate, schema: { type: object } }'])).nodes[0];
  const rich = modelOf(
    skill(['{ type: validate, schema: { type: object } }']).replace(
      'output_schema: { type: object }\npostprocessor',
      'output_schema: { type: object }\nphases:\n  draft:\n    tools: [file/read]\n    preprocessor:\n      steps:\n        - { type: validate, schema: { type: object } }\ncapabilities:\n  - { name: budget, stage: post-tool, uses: "builtin:tool_result_budget" }\npermissions:\n  ops: [file/read]\n  effects: [fs.read, transcript.write]\npostprocessor',
    ),
  ).nodes[0];
  assert.equal(rich.kind, 'phase');
  assert.ok(layoutSizeOf(rich).height > layoutSizeOf(plain).height + 50);
});

/** a model's phase cards by name */
const phasesOf = (model: DiagramModel) => (name: string) => {
  const n = model.nodes.find((x) => x.id === `phase:${name}`)!;
  assert.equal(n.kind, 'phase');
  return n as Extract<typeof n, { kind: 'phase' }>;
};

test('a phase whose badges would cut its name has them on a line of their own, a line taller', () => {
  const text = skill(['{ type: validate, schema: { type: object } }']).replace('  review: []\n', '  review: []\n  summarize: []\n');
  const phase = phasesOf(modelOf(text));
  // terminal and unreachable beside `summarize` would leave it "summ…"
  assert.equal(badgesBelow(phase('summarize')), true);
  // one badge beside a short name fits
  assert.equal(badgesBelow(phase('draft')), false);
  assert.equal(badgesBelow(phase('review')), false);
  assert.equal(layoutSizeOf(phase('summarize')).height, layoutSizeOf(phase('review')).height + 22);
});

test("the last run's failed badge counts among a phase's badges: a name it would cut sends them under it, the card a line taller", () => {
  const text = skill(['{ type: validate, schema: { type: object } }']).replace(
    '  draft: [review]\n  review: []\n',
    '  draft: [review, gather_sources, collect_all_the_notes]\n  collect_all_the_notes: [review]\n  gather_sources: []\n  review: []\n  summarize: []\n',
  );
  const phase = phasesOf(modelOf(text));
  // terminal fits beside `gather_sources`; terminal and failed would cut it
  assert.equal(badgesBelow(phase('gather_sources')), false);
  assert.equal(badgesBelow(phase('gather_sources'), true), true);
  // failed alone beside a long name
  assert.equal(badgesBelow(phase('collect_all_the_notes')), false);
  assert.equal(badgesBelow(phase('collect_all_the_notes'), true), true);
  // a short name keeps failed beside it
  assert.equal(badgesBelow(phase('draft'), true), false);
  // drawn a line taller where failed sends the badges down; laid out as before (a run failing moves no card)
  for (const name of ['gather_sources', 'collect_all_the_notes']) assert.equal(sizeOf(phase(name), true).height, sizeOf(phase(name)).height + 22, name);
  assert.equal(layoutSizeOf(phase('gather_sources')).height, layoutSizeOf(phase('review')).height);
  assert.equal(sizeOf(phase('draft'), true).height, sizeOf(phase('draft')).height);
  // badges already under the name (summarize: terminal, unreachable) take no second line
  assert.equal(badgesBelow(phase('summarize')), true);
  assert.equal(sizeOf(phase('summarize'), true).height, sizeOf(phase('summarize')).height);
});
