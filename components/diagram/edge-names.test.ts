// An edge's name says both of its ends as their cards are named: the chain's "from post:0 to contract"
// read ids where the first edge read "from phase summarize to step 0".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeBundle } from '@/lib/skill/analyze-bundle';
import { nodeWords } from '@/lib/skill/node-names';
import { edgeName } from './edge-names';

test('each end of an edge is named in the words of its card', () => {
  assert.equal(edgeName('phase:summarize', 'post:0'), 'from phase summarize to step 0');
  assert.equal(edgeName('post:0', 'post:1'), 'from step 0 to step 1');
  assert.equal(edgeName('post:1', 'contract'), 'from step 1 to caller contract');
  assert.equal(edgeName('phase:write', 'contract'), 'from phase write to caller contract');
  assert.equal(edgeName('phase:check', 'phase:work'), 'from phase check to phase work');
  // a phase whose name looks like an id stays its name
  assert.equal(nodeWords('phase:post:0'), 'phase post:0');
});

test("every edge of each example's diagram names its ends as the cards' names begin", () => {
  const dir = path.join(process.cwd(), 'examples');
  const ends = new Set<string>();
  for (const name of readdirSync(dir).filter((f) => existsSync(path.join(dir, f, 'skill.md')))) {
    const model = analyzeBundle({ 'skill.md': readFileSync(path.join(dir, name, 'skill.md'), 'utf8') }).diagram!;
    const labels = new Map(model.nodes.map((n) => [n.id, n.label]));
    for (const e of model.edges) {
      const said = edgeName(e.source, e.target);
      assert.doesNotMatch(said, /post:|phase:|to contract$/, `${name}: ${said}`);
      for (const end of [e.source, e.target]) {
        assert.ok(labels.get(end)!.startsWith(nodeWords(end)), `${name}: ${end} is drawn as "${labels.get(end)}"`);
        ends.add(end.replace(/:.*/, ''));
      }
    }
  }
  assert.deepEqual([...ends].sort(), ['contract', 'phase', 'post'], 'the examples have edges to and from each kind of card');
});
