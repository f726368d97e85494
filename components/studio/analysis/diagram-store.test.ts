// The studio's diagram outside React's state: the replies' patches land on it in order, its readers
// are told of each new model (and of nothing else), and while the frontmatter does not parse it
// draws the last good diagram, said to be stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DiagramStore } from './diagram-store';
import { Analyzer, applyDiagramPatch, type AnalyzeRequest } from './studio-analysis';

const files = Object.fromEntries(['skill.md', 'model.yaml', 'sanitize.py', 'input.json', 'report.txt'].map((f) => [f, readFileSync(`examples/summarize/${f}`, 'utf8')]));
const req = (id: number, f: Record<string, string>): AnalyzeRequest => ({ kind: 'analyze', id, files: f, knownSkills: ['summarize'], skillName: 'summarize' });

test('replies patch the store in order; readers hear of each new model, and it is the worker’s', () => {
  const a = new Analyzer();
  const store = new DiagramStore(null);
  let told = 0;
  const stop = store.subscribe(() => told++);
  const apply = (id: number, text: string) => {
    const r = a.analyze(req(id, { ...files, 'skill.md': text }));
    if (r.diagram !== undefined) store.set(r.diagram === null ? null : applyDiagramPatch(store.current(), r.diagram));
    return r;
  };
  apply(1, files['skill.md']);
  assert.equal(told, 1, 'the first diagram is news');
  const drawn = store.get();
  assert.ok(drawn);
  // a description changes no card: no patch, no news, the same model
  const described = files['skill.md'].replace(/^description: .*$/m, 'description: something else');
  assert.notEqual(described, files['skill.md']);
  assert.equal(apply(2, described).diagram, undefined);
  assert.equal(told, 1);
  assert.equal(store.get(), drawn);
  // a card's change: one piece of news, and the model is a fresh analysis's
  const edited = described.replace(/max_rounds: (\d+)/, 'max_rounds: 7');
  apply(3, edited);
  assert.equal(told, 2);
  assert.deepEqual(store.get(), applyDiagramPatch(null, new Analyzer().analyze(req(9, { ...files, 'skill.md': edited })).diagram!));
  assert.equal(store.stale(), false);
  stop();
  apply(4, edited.replace(/max_rounds: 7/, 'max_rounds: 8'));
  assert.equal(told, 2, 'a reader that left hears nothing');
});

test('while the frontmatter does not parse, the last good diagram is drawn, stale; a good one ends that', () => {
  const a = new Analyzer();
  const first = a.analyze(req(1, files));
  const store = new DiagramStore(applyDiagramPatch(null, first.diagram!));
  const good = store.get();
  assert.equal(store.stale(), false);
  // an unclosed flow mapping: nothing to draw
  const broken = a.analyze(req(2, { ...files, 'skill.md': files['skill.md'].replace(/^entry: (.*)$/m, 'entry: { $1') }));
  assert.equal(broken.diagram, null);
  store.set(null);
  assert.equal(store.current(), null);
  assert.equal(store.get(), good, 'the last good diagram is drawn');
  assert.equal(store.stale(), true);
  const fixed = a.analyze(req(3, files));
  store.set(applyDiagramPatch(store.current(), fixed.diagram!));
  assert.equal(store.stale(), false);
  assert.deepEqual(store.get(), good);
  // a store that never had a diagram is not stale: there is nothing to draw
  assert.equal(new DiagramStore(null).stale(), false);
});
