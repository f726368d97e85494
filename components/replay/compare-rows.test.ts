import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompareRowView } from '@/lib/views';
import { visibleRows } from './compare-rows';

const row = (i: number, change: CompareRowView['change'] = 'same'): CompareRowView => ({ position: `p/${i}`, kind: 'processor', change, a: null, b: null });

test('a long comparison folds its unchanged stretches, keeping two rows of context around each change', () => {
  const rows = Array.from({ length: 40 }, (_, i) => row(i, i === 20 ? 'output' : 'same'));
  const shown = visibleRows(rows, false);
  assert.deepEqual(
    shown.map((s) => (s.kind === 'fold' ? `fold ${s.count} from ${s.from}` : s.row.position)),
    ['fold 18 from 0', 'p/18', 'p/19', 'p/20', 'p/21', 'p/22', 'fold 17 from 23'],
  );
  assert.equal(visibleRows(rows, true).length, 40, 'all of them when asked');
});

test('a short comparison is shown whole; one with nothing changed too, unless it is very long', () => {
  assert.equal(visibleRows([row(0), row(1, 'added')], false).length, 2);
  assert.equal(visibleRows(Array.from({ length: 30 }, (_, i) => row(i)), false).length, 30);
  assert.deepEqual(visibleRows(Array.from({ length: 500 }, (_, i) => row(i)), false), [{ kind: 'fold', count: 500, from: 0 }]);
});
