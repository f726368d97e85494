import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutText } from './cut-text';

const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

test('a cut through an emoji steps back before it: no lone surrogate is left, and JSON carries no \\udXXX', () => {
  const s = 'ab🔒cd'; // 🔒 is two UTF-16 units, at 2 and 3
  assert.equal(cutText(s, 4), 'ab…'); // 3 units kept would end on 🔒's high half
  assert.equal(cutText(s, 5), 'ab🔒…');
  for (let n = 1; n <= s.length + 1; n++) {
    const cut = cutText(s, n);
    assert.ok(wellFormed(cut), `n=${n}: ${JSON.stringify(cut)}`);
    assert.ok(cut.length <= n, `n=${n}`);
    assert.ok(!JSON.stringify(cut).includes('\\ud'), `n=${n}`);
  }
});

test('text that fits is kept whole; longer ASCII is cut as before (n-1 characters and …)', () => {
  assert.equal(cutText('short', 5), 'short');
  assert.equal(cutText('a'.repeat(90), 80), `${'a'.repeat(79)}…`);
  assert.equal(cutText('🔒🔒', 4), '🔒🔒');
});
