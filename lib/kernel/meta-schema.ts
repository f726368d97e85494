/**
 * Schemas checked against JSON Schema 2020-12's meta-schema without compiling the meta-schema.
 *
 * ajv checks every schema it compiles against its meta-schema, and compiles the meta-schema (a
 * dozen vocabularies, $dynamicRef) on the first check of each instance: 50–150 ms, once in the
 * skill checker and once in the run-time checker of every `stagecraft run`. `withPrecompiledMeta`
 * has an ajv instance use the meta-schema validator the build compiled ahead of time
 * (meta-precompiled.ts) instead, with ajv's own contract: the same verdict, `ajv.errors` set the
 * same way, and, when asked to throw, the same `schema is invalid: …` error. A schema naming another
 * `$schema`, and every instance where no precompiled validator exists (the tests),
 * take ajv's own path.
 *
 * Owns: that substitution. Does not: compile or validate anything else (schema-check.ts,
 * lib/skill/ajv.ts).
 */
import type { ValidateFunction } from 'ajv';
import { precompiledMeta } from './meta-precompiled';

export const META_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** the part of an ajv instance this touches */
type MetaChecking = {
  validateSchema(schema: unknown, throwOrLogError?: boolean): boolean | Promise<unknown>;
  errors?: unknown;
  errorsText(): string;
};

export function withPrecompiledMeta<A extends MetaChecking>(ajv: A, meta: ValidateFunction | null = precompiledMeta): A {
  if (!meta) return ajv;
  const own = ajv.validateSchema.bind(ajv);
  ajv.validateSchema = (schema: unknown, throwOrLogError?: boolean) => {
    if (typeof schema !== 'object' || schema === null) return own(schema, throwOrLogError);
    const $schema = (schema as { $schema?: unknown }).$schema;
    if ($schema !== undefined && $schema !== META_SCHEMA_2020) return own(schema, throwOrLogError);
    const valid = meta(schema) as boolean;
    ajv.errors = meta.errors ?? null;
    if (!valid && throwOrLogError) throw new Error(`schema is invalid: ${ajv.errorsText()}`);
    return valid;
  };
  return ajv;
}
