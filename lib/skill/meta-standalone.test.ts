// The meta-schema validator the compiled CLI ships (ajv's standalone code, made at build time) says
// exactly what ajv's own meta-schema check says, and an ajv instance given it (withPrecompiledMeta)
// answers validateSchema and compile as before — the same verdicts, errors and thrown messages —
// without compiling the meta-schema itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { newAjv } from './ajv';
import { metaValidatorModule } from './meta-standalone';
import { META_SCHEMA_2020, withPrecompiledMeta } from '../kernel/meta-schema';

const SCHEMAS: unknown[] = [
  { type: 'object', properties: { paragraphs: { type: 'array', items: { type: 'string' }, minItems: 1 } }, required: ['paragraphs'] },
  { $defs: { x: { type: 'string' } }, $ref: '#/$defs/x' },
  { type: ['string', 'null'], pattern: '^a+$' },
  { $schema: META_SCHEMA_2020, type: 'integer', minimum: 0 },
  true,
  // broken
  { type: 'objekt' },
  { type: 5 },
  { properties: { a: { minimum: 'x' } }, required: 'a' },
  { anyOf: [] },
  { $anchor: '1bad' },
  { type: ['string', 'nope'] },
  { additionalProperties: { type: 'object', properties: { z: { type: 'integer', maximum: 'y' } } } },
];
const BROKEN = 7;

async function loadPrecompiled(dir: string): Promise<ValidateFunction> {
  const file = path.join(dir, 'meta.mjs');
  // ajv's helpers resolve from this checkout, as they do from dist/ in the build
  writeFileSync(file, metaValidatorModule(path.resolve('package.json')));
  return (await import(pathToFileURL(file).href)).precompiledMeta as ValidateFunction;
}

test('the precompiled meta-schema validator gives the verdict and the errors of ajv’s own check', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-meta-'));
  try {
    const precompiled = await loadPrecompiled(dir);
    const ajv = newAjv(true);
    let invalid = 0;
    for (const schema of SCHEMAS) {
      const expected = ajv.validateSchema(schema as object);
      assert.equal(precompiled(schema), expected, JSON.stringify(schema));
      assert.deepEqual(precompiled.errors ?? null, ajv.errors ?? null);
      if (!expected) invalid++;
    }
    assert.equal(invalid, BROKEN, 'every broken schema is refused, every other accepted');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an ajv given the precompiled meta-schema answers as before and never compiles the meta-schema', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-meta-'));
  try {
    const precompiled = await loadPrecompiled(dir);
    const plain = newAjv(true);
    const given = withPrecompiledMeta(newAjv(true), precompiled);
    const looked: string[] = [];
    const getSchema = given.getSchema.bind(given);
    given.getSchema = ((key: string) => (looked.push(key), getSchema(key))) as typeof given.getSchema;
    for (const schema of SCHEMAS) {
      assert.equal(given.validateSchema(schema as object), plain.validateSchema(schema as object));
      assert.deepEqual(given.errors ?? null, plain.errors ?? null);
      // compile checks the schema first: the same refusal, word for word
      const outcome = (a: typeof plain) => {
        try {
          a.compile(schema as object);
          return 'compiled';
        } catch (e) {
          return (e as Error).message;
        } finally {
          if (typeof schema === 'object') a.removeSchema(schema as object);
        }
      };
      assert.equal(outcome(given), outcome(plain), JSON.stringify(schema));
    }
    assert.deepEqual(looked.filter((k) => k === META_SCHEMA_2020), [], 'the meta-schema was not compiled');
    // a schema naming another meta-schema takes ajv's own path (and its own refusal)
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' };
    assert.throws(() => given.compile(draft7), /no schema with key or ref "http:\/\/json-schema.org\/draft-07\/schema#"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
