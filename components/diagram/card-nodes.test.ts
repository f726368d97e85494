// The cards' nodes outside React Flow: a card is told when its own node changes (another object,
// gone, or new), and of nothing else; the nodes are the model's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Analyzer, applyDiagramPatch, type AnalyzeRequest } from '../studio/analysis/studio-analysis';
import type { DiagramModel } from '@/lib/skill/diagram';
import { CardNodes } from './card-nodes';

const files = Object.fromEntries(['skill.md', 'model.yaml', 'sanitize.py', 'input.json', 'report.txt'].map((f) => [f, readFileSync(`examples/summarize/${f}`, 'utf8')]));
const req = (id: number, text: string): AnalyzeRequest => ({ kind: 'analyze', id, files: { ...files, 'skill.md': text }, knownSkills: ['summarize'], skillName: 'summarize' });

test('a card is told when its node changes, and only then; the node it reads is the model’s', () => {
  const a = new Analyzer();
  let model: DiagramModel | null = null;
  const apply = (id: number, text: string) => {
    const r = a.analyze(req(id, text));
    if (r.diagram !== undefined) model = r.diagram === null ? null : applyDiagramPatch(model, r.diagram);
    return model;
  };
  const first = apply(1, files['skill.md']);
  assert.ok(first);
  const cards = new CardNodes(first);
  const ids = first.nodes.map((n) => n.id);
  assert.ok(ids.includes('post:0') && ids.includes('phase:summarize'));
  const told = new Map(ids.map((id) => [id, 0]));
  const stops = ids.map((id) => cards.subscribe(id, () => told.set(id, told.get(id)! + 1)));
  for (const n of first.nodes) assert.equal(cards.node(n.id), n);

  // the same model again, and a model whose nodes are the same objects: nobody is told
  cards.set(first);
  cards.set({ ...first, nodes: [...first.nodes] });
  assert.deepEqual([...told.values()], ids.map(() => 0));

  // a keystroke in the postprocessor step's `function:` changes that card alone
  const text = files['skill.md'];
  assert.match(text, /^ +function: sanitize$/m);
  const typed = apply(2, text.replace(/^( +function: sanitize)$/m, '$1x'));
  assert.ok(typed && typed !== first);
  const changed = typed.nodes.filter((n, i) => n !== first.nodes[i]).map((n) => n.id);
  assert.equal(changed.length, 1, `one card changes: ${changed}`);
  cards.set(typed);
  assert.deepEqual([...told].filter(([, k]) => k > 0).map(([id]) => id), changed);
  assert.equal(cards.node(changed[0]), typed.nodes.find((n) => n.id === changed[0]));

  // a card that stopped listening is not told; one whose node is gone is, and reads nothing
  stops[ids.indexOf(changed[0])]();
  cards.set(null);
  assert.equal(told.get(changed[0]), 1);
  for (const id of ids.filter((i) => i !== changed[0])) assert.equal(told.get(id), 1, id);
  assert.equal(cards.node(ids[0]), undefined);
});
