/**
 * JSON Schema checks at run time (finish artifacts, validate steps, contracts),
 * with ajv 2020 compiled once per distinct schema.
 *
 * Owns: the compile cache and the error wording (each error located by JSON
 * pointer). Does not: validate skill.md (lib/skill does, with source locations).
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { Json, JsonSchema } from './json';
import { canonicalJson } from './memo';
import { linearRegExp } from './linear-regexp';
import { useLinearFormats } from './linear-formats';
import { withPrecompiledMeta } from './meta-schema';

type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: unknown) => void;

// an author's patterns run on run-time data: matched in linear time (linear-regexp.ts)
// each schema is checked against the meta-schema the build precompiled, where it did (meta-schema.ts)
const ajv = withPrecompiledMeta(new Ajv2020({ allErrors: true, strict: false, code: { regExp: linearRegExp } }));
addFormats(ajv);
useLinearFormats(ajv);
const cache = new Map<string, ValidateFunction>();

export type SchemaError = { pointer: string; message: string };

/** the same schema object (a plan's, checked at every run) finds its function without being written out again */
const byIdentity = new WeakMap<object, ValidateFunction>();

export function compileSchema(schema: JsonSchema): ValidateFunction {
  const isObject = typeof schema === 'object' && schema !== null;
  let fn = isObject ? byIdentity.get(schema) : undefined;
  if (fn) return fn;
  const k = canonicalJson(schema);
  fn = cache.get(k);
  if (!fn) {
    fn = ajv.compile(schema as object | boolean);
    cache.set(k, fn);
  }
  if (isObject) byIdentity.set(schema, fn);
  return fn;
}

export function checkSchema(schema: JsonSchema, value: Json | undefined): SchemaError[] {
  const fn = compileSchema(schema);
  if (fn(value)) return [];
  return (fn.errors ?? []).map((e) => {
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = `has unexpected property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    if (e.keyword === 'enum') message = `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    return { pointer: e.instancePath || '/', message };
  });
}

export function formatSchemaErrors(errors: SchemaError[]): string {
  return errors.map((e) => `${e.pointer} ${e.message}`).join('; ');
}
