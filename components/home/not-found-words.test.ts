import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notFoundWords } from './not-found-words';

test('an unknown run or skill is named from the address, its list offered first', () => {
  assert.deepEqual(notFoundWords('run', '/runs/run_abc'), { text: 'There is no run run_abc. It may have been deleted, or the id is mistyped.', first: 'runs' });
  assert.equal(notFoundWords('skill', '/skills/my%20skill').text.startsWith('There is no skill my skill.'), true);
  // a malformed escape is shown as typed, not thrown
  assert.equal(notFoundWords('skill', '/skills/bad%E0').text.startsWith('There is no skill bad%E0.'), true);
});

test('any other address, or none, keeps the general words', () => {
  assert.match(notFoundWords('page', '/x/y').text, /^There is no page at this address\./);
  assert.match(notFoundWords('run', null).text, /^There is no page at this address\./);
});
