// The diagram's view: a view counts as the one the diagram chose while it is the same to half a pixel;
// the node set's key changes when a node is added or removed, not when the same nodes come in another order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeSetKey, sameView } from './view';

test('a view is the chosen one to half a pixel and a thousandth of zoom; a zoom or pan makes it another', () => {
  const chosen = { x: 100, y: 40, zoom: 0.8 };
  assert.equal(sameView({ x: 100.4, y: 39.6, zoom: 0.8004 }, chosen), true);
  assert.equal(sameView({ x: 100, y: 40, zoom: 0.96 }, chosen), false);
  assert.equal(sameView({ x: 120, y: 40, zoom: 0.8 }, chosen), false);
});

test('the node set changes with a node added or removed, not with the same nodes in another order', () => {
  const three = nodeSetKey([{ id: 'phase:a' }, { id: 'phase:b' }, { id: 'contract' }]);
  assert.equal(nodeSetKey([{ id: 'contract' }, { id: 'phase:b' }, { id: 'phase:a' }]), three);
  assert.notEqual(nodeSetKey([{ id: 'phase:a' }, { id: 'contract' }]), three);
  assert.notEqual(nodeSetKey([{ id: 'phase:a' }, { id: 'phase:b' }, { id: 'phase:c' }, { id: 'contract' }]), three);
});
