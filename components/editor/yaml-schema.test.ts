/**
 * The editor's copy of the frontmatter schema gives every object that forbids other keys a message
 * of its own (so monaco-yaml's worker never formats one with a null key, see yaml-schema.ts), and
 * changes nothing else: data keywords (default, examples, const, enum) are left as they are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skillFrontmatterSchema } from '@/lib/skill/schema';
import { EXTRA_KEY_MESSAGE, schemaSafeForNullKeys } from './yaml-schema';

describe('schemaSafeForNullKeys', () => {
  it('gives each object with additionalProperties or unevaluatedProperties false a message, and only those', () => {
    const out = schemaSafeForNullKeys({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'object', unevaluatedProperties: false }, b: { type: 'object' }, c: { type: 'object', additionalProperties: false, errorMessage: 'own' } },
    });
    assert.deepEqual(out, {
      type: 'object',
      additionalProperties: false,
      errorMessage: EXTRA_KEY_MESSAGE,
      properties: { a: { type: 'object', unevaluatedProperties: false, errorMessage: EXTRA_KEY_MESSAGE }, b: { type: 'object' }, c: { type: 'object', additionalProperties: false, errorMessage: 'own' } },
    });
  });

  it('leaves data untouched: a default or an example that is itself a closed schema', () => {
    const closed = { type: 'object', additionalProperties: false };
    const schema = { type: 'object', default: closed, examples: [closed], const: closed, enum: [closed] };
    assert.deepEqual(schemaSafeForNullKeys(schema), schema);
  });

  it('covers every closed object of the frontmatter schema, which it otherwise leaves as it was', () => {
    const out = JSON.stringify(schemaSafeForNullKeys(skillFrontmatterSchema as never));
    const closed = (out.match(/"additionalProperties":false/g) ?? []).length;
    assert.ok(closed > 0);
    assert.equal((out.match(/"errorMessage"/g) ?? []).length, closed);
    assert.equal(out.replaceAll(`,"errorMessage":${JSON.stringify(EXTRA_KEY_MESSAGE)}`, ''), JSON.stringify(skillFrontmatterSchema));
  });
});
