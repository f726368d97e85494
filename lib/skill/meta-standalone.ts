/**
 * ajv's standalone code for JSON Schema 2020-12's meta-schema, compiled with the options of the
 * skill checker (lib/skill/ajv.ts: all errors, verbose): the text of a module that stands in for
 * lib/kernel/meta-precompiled.ts in the compiled CLI (scripts/build-cli.mjs). Used at build time and
 * by its test, never at run time.
 */
import standaloneModule from 'ajv/dist/standalone/index.js';
import type Ajv from 'ajv';
import type { AnyValidateFunction } from 'ajv/dist/types';
import { META_SCHEMA_2020 } from '../kernel/meta-schema';
import { newAjv } from './ajv';
import { standaloneModuleText, type RequireFrom } from './standalone-text';

type Standalone = (ajv: Ajv, validate: AnyValidateFunction) => string;
// CommonJS: the function is the default export under one loader and the module itself under another
const standaloneCode = ((standaloneModule as unknown as { default?: Standalone }).default ?? standaloneModule) as unknown as Standalone;

/** The module's text; its `require`s of ajv's helpers resolve from `requireFrom` (default: the module's own location). */
export function metaValidatorModule(requireFrom?: RequireFrom): string {
  const ajv = newAjv(false, { code: { source: true, esm: true } });
  const validate = ajv.getSchema(META_SCHEMA_2020);
  if (!validate) throw new Error(`ajv has no ${META_SCHEMA_2020}`);
  return standaloneModuleText(standaloneCode(ajv, validate), 'precompiledMeta', requireFrom);
}
