/**
 * ajv's standalone code for `skillFrontmatterSchema`, with the options of the validator ajv.ts
 * compiles at run time: the text of a module that stands in for frontmatter-precompiled.ts in the
 * compiled CLI (scripts/build-cli.mjs). Used at build time and by its test, never at run time.
 */
import standaloneModule from 'ajv/dist/standalone/index.js';
import type Ajv from 'ajv';
import type { AnyValidateFunction } from 'ajv/dist/types';
import { newAjv } from './ajv';
import { standaloneModuleText, type RequireFrom } from './standalone-text';
import { skillFrontmatterSchema } from './schema';

type Standalone = (ajv: Ajv, validate: AnyValidateFunction) => string;
// CommonJS: the function is the default export under one loader and the module itself under another
const standaloneCode = ((standaloneModule as unknown as { default?: Standalone }).default ?? standaloneModule) as unknown as Standalone;

/**
 * The module's text. The generated code `require`s ajv's run-time helpers; `requireFrom` is where
 * they resolve from (default: the module's own location, inside the checkout; 'bundler': left to the
 * app's bundler, standalone-text.ts).
 */
export function frontmatterValidatorModule(requireFrom?: RequireFrom): string {
  const ajv = newAjv(false, { code: { source: true, esm: true } });
  const validate = ajv.compile(skillFrontmatterSchema);
  return standaloneModuleText(standaloneCode(ajv, validate), 'precompiledFrontmatter', requireFrom);
}
