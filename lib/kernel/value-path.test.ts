import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getPath, renderTemplate } from './value-path';
import { StepFailedError } from './errors';

test('a path reads the value\'s own keys: items[0].id, post.title', () => {
  const v = { items: [{ id: 'a' }], post: { title: 'T', constructor: 'mine' } };
  assert.equal(getPath(v, 'items[0].id'), 'a');
  assert.equal(getPath(v, 'post.title'), 'T');
  assert.equal(getPath(v, 'post.constructor'), 'mine', 'a key of the value by that name is read');
});

test('a path naming what JavaScript puts on every object (constructor, __proto__, toString) is not in the value', () => {
  const v = { post: { title: 'T' } };
  for (const p of ['constructor', '__proto__', 'toString', 'post.hasOwnProperty', 'post.__proto__.constructor']) {
    assert.equal(getPath(v, p), undefined, p);
  }
  assert.throws(
    () => renderTemplate('${constructor}', v, 'step 0'),
    (e: unknown) => e instanceof StepFailedError && e.code === 'path_not_found' && /"constructor" is not in the current value \(it has: post\)/.test(e.message),
  );
  assert.deepEqual(renderTemplate({ a: '${post.title}' }, v, 'step 0'), { a: 'T' });
});
