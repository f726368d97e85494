// A card's label and an edge's name of the diagram come from one naming of node ids: each label
// begins with its id's words, and adds only what the card alone says (type, ` (entry)`, ` invalid`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeBundle } from './analyze-bundle';
import { nodeWords } from './node-names';

test("an id's words: phase, preprocessor step, postprocessor step, the contract", () => {
  assert.equal(nodeWords('phase:draft'), 'phase draft');
  assert.equal(nodeWords('phase:Escalate now'), 'phase Escalate now');
  assert.equal(nodeWords('pre:triage:0'), 'triage preprocessor #0');
  assert.equal(nodeWords('pre:triage:0/1'), 'triage preprocessor #0/1');
  assert.equal(nodeWords('pre:a:b:2'), 'a:b preprocessor #2');
  assert.equal(nodeWords('post:0'), 'step 0');
  assert.equal(nodeWords('post:0/1'), 'step 0/1');
  assert.equal(nodeWords('contract'), 'caller contract');
  assert.equal(nodeWords('cap:0'), 'cap:0');
});

test("every card and step of each example's diagram is labelled in its id's words, then what the card adds", () => {
  const dir = path.join(process.cwd(), 'examples');
  let seen = 0;
  for (const name of readdirSync(dir).filter((f) => existsSync(path.join(dir, f, 'skill.md')))) {
    const model = analyzeBundle({ 'skill.md': readFileSync(path.join(dir, name, 'skill.md'), 'utf8') }).diagram!;
    type Item = { id: string; label: string; steps?: Item[] };
    const items: Item[] = [];
    const walk = (xs: readonly Item[] | undefined) => xs?.forEach((s) => (items.push(s), walk(s.steps)));
    for (const n of model.nodes) {
      items.push(n);
      if (n.kind === 'phase') walk(n.preprocessor);
      if (n.kind === 'step') walk(n.steps);
    }
    for (const { id, label } of items) {
      const rest = label.slice(nodeWords(id).length);
      assert.ok(label.startsWith(nodeWords(id)) && /^( \(entry\))?( \S+)?( invalid)?$/.test(rest), `${name}: ${id} is labelled "${label}"`);
      seen++;
    }
  }
  assert.ok(seen > 10);
});
