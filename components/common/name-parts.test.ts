import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameParts } from './name-parts';

test('a name breaks only after its _ or - (kept with the part before), and the parts join to the name', () => {
  const cases: [string, string[]][] = [
    ['summarize_customer_feedback_weekly', ['summarize_', 'customer_', 'feedback_', 'weekly']],
    ['summarize', ['summarize']],
    ['a__b-c_', ['a__', 'b-', 'c_']],
    ['_lead', ['_', 'lead']],
    ['', []],
  ];
  for (const [name, parts] of cases) {
    assert.deepEqual(nameParts(name), parts, name);
    assert.equal(nameParts(name).join(''), name);
  }
});
