import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveResponseFormat, type ResponseFormatOptions } from './response-format';
import type { JsonObject, JsonSchema } from './json';

type Case = { name: string; schema: JsonSchema; opts?: ResponseFormatOptions; want: JsonSchema };

const str = { type: 'string' };

/** The reporter contract of the seed: edit / review modes, machine fields, a condition on the outcome. */
const reporter: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'reporter',
  type: 'object',
  properties: {
    mode: { enum: ['edit', 'review'] },
    summary: str,
    outcome: { enum: ['succeeded', 'blocked', 'failed'] },
    block_reason: str,
  },
  required: ['mode', 'summary', 'outcome'],
  oneOf: [
    {
      properties: {
        mode: { const: 'edit' },
        changed_files: {
          type: 'array',
          items: { type: 'object', properties: { path: str, description: str }, required: ['path', 'description'] },
        },
      },
      required: ['changed_files'],
    },
    {
      properties: { mode: { const: 'review' }, verdict: { enum: ['approve', 'reject'] }, rationale: str },
      required: ['verdict', 'rationale'],
    },
  ],
  if: { properties: { outcome: { const: 'blocked' } } },
  then: { required: ['block_reason'] },
  unevaluatedProperties: false,
};

const reporterEdit = {
  type: 'object',
  properties: {
    mode: { const: 'edit' },
    summary: str,
    changed_files: {
      type: 'array',
      items: { type: 'object', properties: { description: str }, required: ['description'] },
    },
  },
  required: ['mode', 'summary', 'changed_files'],
  additionalProperties: false,
};

const cases: Case[] = [
  // ------------------------------------------------------------ plain schemas, keywords
  {
    name: 'a plain object is unchanged',
    schema: { type: 'object', properties: { title: str }, required: ['title'] },
    want: { type: 'object', properties: { title: str }, required: ['title'] },
  },
  {
    name: 'rejected keywords are dropped',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'x',
      $comment: 'c',
      type: 'object',
      properties: { a: { type: 'number', not: { const: 0 } } },
      dependentSchemas: { a: { required: ['b'] } },
    },
    want: { type: 'object', properties: { a: { type: 'number' } } },
  },
  {
    name: 'unevaluatedProperties: false becomes additionalProperties: false',
    schema: { type: 'object', properties: { a: str }, unevaluatedProperties: false },
    want: { type: 'object', properties: { a: str }, additionalProperties: false },
  },
  {
    name: 'x-* annotations are stripped',
    schema: { type: 'object', properties: { a: { type: 'string', 'x-ui': 'textarea' } }, 'x-note': 1 },
    want: { type: 'object', properties: { a: str } },
  },
  // ------------------------------------------------------------ machine fields
  {
    name: 'machine fields leave properties and required',
    schema: {
      type: 'object',
      properties: { summary: str, outcome: str, block_reason: str },
      required: ['summary', 'outcome'],
    },
    opts: { machineFields: ['outcome', 'block_reason'] },
    want: { type: 'object', properties: { summary: str }, required: ['summary'] },
  },
  {
    name: 'x-derived properties are removed at any depth',
    schema: {
      type: 'object',
      properties: {
        outcome: { type: 'string', 'x-derived': true },
        nested: { type: 'object', properties: { at: { type: 'number', 'x-derived': true }, note: str }, required: ['at'] },
      },
      required: ['outcome', 'nested'],
    },
    want: { type: 'object', properties: { nested: { type: 'object', properties: { note: str } } }, required: ['nested'] },
  },
  {
    name: 'a dotted machine path reaches through array items',
    schema: {
      type: 'object',
      properties: {
        changed_files: {
          type: 'array',
          items: { type: 'object', properties: { path: str, description: str }, required: ['path', 'description'] },
        },
        path: str,
      },
    },
    opts: { machineFields: ['changed_files.path'] },
    want: {
      type: 'object',
      properties: {
        changed_files: { type: 'array', items: { type: 'object', properties: { description: str }, required: ['description'] } },
        path: str,
      },
    },
  },
  {
    name: 'x-derived behind a $ref counts',
    schema: {
      type: 'object',
      properties: { at: { $ref: '#/$defs/Stamp' }, a: str },
      $defs: { Stamp: { type: 'number', 'x-derived': true } },
    },
    want: { type: 'object', properties: { a: str } },
  },
  // ------------------------------------------------------------ $ref
  {
    name: '$ref to $defs is inlined, siblings merged over the target',
    schema: {
      type: 'object',
      properties: { who: { $ref: '#/$defs/Person', description: 'the author' } },
      $defs: { Person: { type: 'object', properties: { name: str }, description: 'a person' } },
    },
    want: {
      type: 'object',
      properties: { who: { type: 'object', properties: { name: str }, description: 'the author' } },
    },
  },
  {
    name: 'a JSON pointer with escapes resolves',
    schema: { type: 'object', properties: { a: { $ref: '#/$defs/a~1b' } }, $defs: { 'a/b': { const: 1 } } },
    want: { type: 'object', properties: { a: { const: 1 } } },
  },
  {
    name: 'a recursive $ref is cut to {} where it recurs',
    schema: {
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { name: str, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    },
    want: {
      type: 'object',
      properties: { name: str, children: { type: 'array', items: {} } },
    },
  },
  {
    name: 'a non-local $ref becomes permissive',
    schema: { type: 'object', properties: { a: { $ref: 'other.json#/x' } } },
    want: { type: 'object', properties: { a: {} } },
  },
  // ------------------------------------------------------------ allOf
  {
    name: 'allOf members merge into the parent',
    schema: {
      type: 'object',
      properties: { a: str },
      required: ['a'],
      allOf: [{ properties: { b: { type: 'number' } }, required: ['b'] }, { properties: { a: { minLength: 1 } } }],
    },
    want: {
      type: 'object',
      properties: { a: { type: 'string', minLength: 1 }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'contradicting types make the schema unsatisfiable',
    schema: { allOf: [{ type: 'string' }, { type: 'number' }] },
    want: false,
  },
  {
    name: 'integer within number intersects to integer',
    schema: { type: ['number', 'null'], allOf: [{ type: 'integer' }] },
    want: { type: 'integer' },
  },
  // ------------------------------------------------------------ oneOf / anyOf
  {
    name: 'oneOf with a discriminator selected by value is reduced to that branch and merged',
    schema: {
      type: 'object',
      properties: { kind: { enum: ['a', 'b'] } },
      required: ['kind'],
      oneOf: [
        { properties: { kind: { const: 'a' }, x: str }, required: ['x'] },
        { properties: { kind: { const: 'b' }, y: str }, required: ['y'] },
      ],
    },
    opts: { value: { kind: 'b' } },
    want: { type: 'object', properties: { kind: { const: 'b' }, y: str }, required: ['kind', 'y'] },
  },
  {
    name: 'the mode hint selects a branch when value does not say',
    schema: {
      type: 'object',
      oneOf: [
        { properties: { mode: { const: 'edit' }, x: str } },
        { properties: { mode: { enum: ['review', 'audit'] }, y: str } },
      ],
    },
    opts: { mode: 'audit' },
    want: { type: 'object', properties: { mode: { enum: ['review', 'audit'] }, y: str } },
  },
  {
    name: 'value wins over the mode hint',
    schema: {
      type: 'object',
      oneOf: [{ properties: { mode: { const: 'edit' } } }, { properties: { mode: { const: 'review' } } }],
    },
    opts: { mode: 'review', value: { mode: 'edit' } },
    want: { type: 'object', properties: { mode: { const: 'edit' } } },
  },
  {
    name: 'undecided oneOf becomes anyOf of plain objects with the parent distributed',
    schema: {
      type: 'object',
      properties: { note: str },
      additionalProperties: false,
      oneOf: [
        { properties: { kind: { const: 'a' }, x: str } },
        { properties: { kind: { const: 'b' }, y: str } },
      ],
    },
    want: {
      anyOf: [
        { type: 'object', properties: { note: str, kind: { const: 'a' }, x: str }, additionalProperties: false },
        { type: 'object', properties: { note: str, kind: { const: 'b' }, y: str }, additionalProperties: false },
      ],
    },
  },
  {
    name: 'a hint that matches no branch keeps every branch',
    schema: { oneOf: [{ properties: { k: { const: 'a' } } }, { properties: { k: { const: 'b' } } }] },
    opts: { mode: 'zzz' },
    want: { anyOf: [{ properties: { k: { const: 'a' } } }, { properties: { k: { const: 'b' } } }] },
  },
  {
    name: 'anyOf of scalars in a property stays anyOf',
    schema: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
    want: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
  },
  {
    name: 'branches that contradict the parent are dropped',
    schema: { type: 'object', oneOf: [{ type: 'string' }, { type: 'object', properties: { a: str } }] },
    want: { type: 'object', properties: { a: str } },
  },
  {
    name: 'branches that are $refs are inlined first',
    schema: {
      type: 'object',
      oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }],
      $defs: {
        A: { properties: { t: { const: 'A' }, a: str } },
        B: { properties: { t: { const: 'B' }, b: str } },
      },
    },
    opts: { value: { t: 'A' } },
    want: { type: 'object', properties: { t: { const: 'A' }, a: str } },
  },
  {
    name: 'discriminated oneOf nested in a property uses the nested value',
    schema: {
      type: 'object',
      properties: {
        target: {
          oneOf: [
            { type: 'object', properties: { kind: { const: 'file' }, path: str } },
            { type: 'object', properties: { kind: { const: 'url' }, href: str } },
          ],
        },
      },
    },
    opts: { value: { target: { kind: 'url' } } },
    want: { type: 'object', properties: { target: { type: 'object', properties: { kind: { const: 'url' }, href: str } } } },
  },
  {
    name: 'branches identical after removing machine fields collapse to one',
    schema: {
      type: 'object',
      oneOf: [
        { properties: { outcome: { const: 'succeeded' }, summary: str } },
        { properties: { outcome: { const: 'blocked' }, summary: str } },
      ],
    },
    opts: { machineFields: ['outcome'] },
    want: { type: 'object', properties: { summary: str } },
  },
  // ------------------------------------------------------------ if / then / else
  {
    name: 'if decided true merges then',
    schema: {
      type: 'object',
      properties: { mode: { enum: ['edit', 'review'] } },
      if: { properties: { mode: { const: 'edit' } }, required: ['mode'] },
      then: { properties: { files: { type: 'array' } }, required: ['files'] },
      else: { properties: { verdict: str }, required: ['verdict'] },
    },
    opts: { value: { mode: 'edit' } },
    want: { type: 'object', properties: { mode: { enum: ['edit', 'review'] }, files: { type: 'array' } }, required: ['files'] },
  },
  {
    name: 'if decided false merges else',
    schema: {
      type: 'object',
      if: { properties: { mode: { const: 'edit' } } },
      then: { properties: { files: { type: 'array' } } },
      else: { properties: { verdict: str } },
    },
    opts: { value: { mode: 'review' } },
    want: { type: 'object', properties: { verdict: str } },
  },
  {
    name: 'if decided by the mode hint',
    schema: {
      type: 'object',
      if: { properties: { mode: { const: 'edit' } }, required: ['mode'] },
      then: { properties: { files: { type: 'array' } } },
      else: { properties: { verdict: str } },
    },
    opts: { mode: 'edit' },
    want: { type: 'object', properties: { files: { type: 'array' } } },
  },
  {
    name: 'the mode hint decides false only for a property that can take it',
    schema: {
      type: 'object',
      properties: { mode: { enum: ['edit', 'review'] } },
      if: { properties: { mode: { const: 'review' } } },
      then: { properties: { verdict: str } },
      else: { properties: { files: { type: 'array' } } },
    },
    opts: { mode: 'edit' },
    want: { type: 'object', properties: { mode: { enum: ['edit', 'review'] }, files: { type: 'array' } } },
  },
  {
    name: 'the mode hint says nothing about other properties',
    schema: {
      type: 'object',
      properties: { outcome: { enum: ['succeeded', 'blocked'] }, block_reason: str },
      if: { properties: { outcome: { const: 'blocked' } } },
      then: { required: ['block_reason'] },
    },
    opts: { mode: 'edit' },
    want: {
      anyOf: [
        { type: 'object', properties: { outcome: { enum: ['succeeded', 'blocked'] }, block_reason: str }, required: ['block_reason'] },
        { type: 'object', properties: { outcome: { enum: ['succeeded', 'blocked'] }, block_reason: str } },
      ],
    },
  },
  {
    name: 'undecidable if becomes the then/else union',
    schema: {
      type: 'object',
      properties: { a: str },
      if: { properties: { a: { const: 'x' } } },
      then: { required: ['a'] },
      else: { properties: { b: str } },
    },
    want: {
      anyOf: [
        { type: 'object', properties: { a: str }, required: ['a'] },
        { type: 'object', properties: { a: str, b: str } },
      ],
    },
  },
  {
    name: 'undecidable if without else: then or nothing',
    schema: {
      type: 'object',
      properties: { a: str },
      if: { properties: { a: { const: 'x' } } },
      then: { properties: { b: str } },
    },
    want: {
      anyOf: [{ type: 'object', properties: { a: str, b: str } }, { type: 'object', properties: { a: str } }],
    },
  },
  {
    name: 'a condition with an assertion it cannot evaluate is undecidable',
    schema: {
      type: 'object',
      if: { properties: { a: { minLength: 3 } } },
      then: { properties: { long: { const: true } } },
      else: { properties: { long: { const: false } } },
    },
    opts: { value: { a: 'abcd' } },
    want: {
      anyOf: [
        { type: 'object', properties: { long: { const: true } } },
        { type: 'object', properties: { long: { const: false } } },
      ],
    },
  },
  {
    name: 'conditions inside allOf are resolved one by one',
    schema: {
      type: 'object',
      allOf: [
        { if: { properties: { a: { const: 1 } } }, then: { properties: { one: str } } },
        { if: { properties: { b: { type: 'string' } } }, then: { properties: { two: str } }, else: { properties: { three: str } } },
      ],
    },
    opts: { value: { a: 1, b: 2 } },
    want: { type: 'object', properties: { one: str, three: str } },
  },
  {
    name: 'not and anyOf in a condition are evaluated three-valued',
    schema: {
      type: 'object',
      if: { anyOf: [{ properties: { a: { const: 1 } } }, { not: { properties: { b: { const: 2 } } } }] },
      then: { properties: { yes: str } },
      else: { properties: { no: str } },
    },
    opts: { value: { a: 0, b: 2 } },
    want: { type: 'object', properties: { no: str } },
  },
  {
    name: 'a condition only about a machine field disappears with it',
    schema: {
      type: 'object',
      properties: { summary: str, outcome: str, block_reason: str },
      if: { properties: { outcome: { const: 'blocked' } } },
      then: { required: ['block_reason'] },
    },
    opts: { machineFields: ['outcome', 'block_reason'] },
    want: { type: 'object', properties: { summary: str } },
  },
  // ------------------------------------------------------------ strict
  {
    name: 'strict closes every object and requires every property',
    schema: {
      type: 'object',
      properties: { a: str, b: { type: 'object', properties: { c: str } } },
      required: ['a'],
    },
    opts: { strict: true },
    want: {
      type: 'object',
      properties: { a: str, b: { type: 'object', properties: { c: str }, additionalProperties: false, required: ['c'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
  {
    name: 'strict leaves a map-shaped additionalProperties alone',
    schema: { type: 'object', additionalProperties: str },
    opts: { strict: true },
    want: { type: 'object', additionalProperties: str },
  },
  {
    name: 'without strict, nothing is added to required',
    schema: { type: 'object', properties: { a: str } },
    want: { type: 'object', properties: { a: str } },
  },
  // ------------------------------------------------------------ the seed's reporter
  {
    name: 'reporter, edit mode: the edit branch alone, facts removed, condition gone',
    schema: reporter,
    opts: { machineFields: ['outcome', 'block_reason', 'changed_files.path'], mode: 'edit' },
    want: reporterEdit,
  },
  {
    name: 'reporter, mode from value, strict',
    schema: reporter,
    opts: { machineFields: ['outcome', 'block_reason'], value: { mode: 'review' }, strict: true },
    want: {
      type: 'object',
      properties: { mode: { const: 'review' }, summary: str, verdict: { enum: ['approve', 'reject'] }, rationale: str },
      required: ['mode', 'summary', 'verdict', 'rationale'],
      additionalProperties: false,
    },
  },
  // ------------------------------------------------------------ boolean schemas
  { name: 'true is the empty schema', schema: true, want: {} },
  { name: 'false stays false', schema: false, want: false },
  {
    name: 'a property that is false is dropped, unless required',
    schema: { type: 'object', properties: { a: false, b: str } },
    want: { type: 'object', properties: { b: str } },
  },
  {
    name: 'a required property that is false makes the schema unsatisfiable',
    schema: { type: 'object', properties: { a: false }, required: ['a'] },
    want: false,
  },
];

for (const c of cases) {
  test(`deriveResponseFormat: ${c.name}`, () => {
    assert.deepEqual(deriveResponseFormat(c.schema, c.opts), c.want);
  });
}

test('deriveResponseFormat is pure: the input is not mutated and the output is stable', () => {
  const before = JSON.stringify(reporter);
  const opts: ResponseFormatOptions = { machineFields: ['outcome'], mode: 'edit', strict: true };
  const a = deriveResponseFormat(reporter, opts);
  const b = deriveResponseFormat(reporter, opts);
  assert.equal(JSON.stringify(reporter), before);
  assert.equal(JSON.stringify(a), JSON.stringify(b));
});

test('deriveResponseFormat is idempotent on its own output', () => {
  for (const c of cases) {
    const once = deriveResponseFormat(c.schema, c.opts);
    assert.deepEqual(deriveResponseFormat(once, c.opts), once, c.name);
  }
});

test('deriveResponseFormat output uses no keyword providers reject', () => {
  const banned = ['if', 'then', 'else', 'not', 'oneOf', 'allOf', '$ref', '$defs', 'dependentSchemas', 'unevaluatedProperties', '$schema', '$id'];
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        // `properties` names are data, not keywords
        if (at.endsWith('.properties')) {
          walk(x, `${at}.${k}`);
          continue;
        }
        assert.ok(!banned.includes(k), `${k} at ${at}`);
        walk(x, `${at}.${k}`);
      }
    }
  };
  for (const c of cases) walk(deriveResponseFormat(c.schema, c.opts), c.name);
});
