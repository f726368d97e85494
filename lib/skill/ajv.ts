/**
 * The ajv instances of lib/skill, created once per process.
 *
 * Owns: ajv options. `frontmatterValidator` is `skillFrontmatterSchema`
 * compiled once (allErrors, so an author sees every problem in one pass) — or,
 * in the compiled CLI, compiled ahead of time (frontmatter-precompiled.ts);
 * `schemaChecker` compiles the author's own schemas to find the ones that do
 * not compile, and is stricter than the run-time checker in lib/kernel (an
 * unknown keyword such as `propertiez` is a typo here, not an annotation).
 * Does not: map errors to messages (structure.ts, check-schemas.ts).
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Options, ValidateFunction } from 'ajv';
import { skillFrontmatterSchema } from './schema';
import { precompiledFrontmatter } from './frontmatter-precompiled';
import { linearRegExp } from '../kernel/linear-regexp';
import { useLinearFormats } from '../kernel/linear-formats';
import { withPrecompiledMeta } from '../kernel/meta-schema';

// ajv and ajv-formats are CommonJS: under ESM the constructor is the default
// export in one loader and the module itself in another.
type AjvCtor = typeof import('ajv/dist/2020.js').default;
export type Ajv = InstanceType<AjvCtor>;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => void;

/**
 * `authored`: for the author's own schemas — their patterns compile to RE2 (linear time, as the
 * kernel matches them; lib/kernel/linear-regexp.ts), and strict mode does not test them against
 * the schema's property names with the backtracking engine (`allowMatchingProperties`: that check
 * runs `new RegExp(pattern)` at compile time, where a hostile pattern and name could stall it).
 * The frontmatter schema is ours, its patterns too (one uses a lookahead).
 */
export function newAjv(authored: boolean, extra: Options = {}): Ajv {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: true,
    verbose: true,
    ...(authored ? { allowMatchingProperties: true, code: { regExp: linearRegExp } } : {}),
    ...extra,
  });
  addFormats(ajv);
  useLinearFormats(ajv);
  // an author's schema is checked against the meta-schema the build precompiled, where it did
  return withPrecompiledMeta(ajv);
}

let frontmatter: ValidateFunction | undefined;

/** `skillFrontmatterSchema`, compiled ahead of time or on first use, and reused. */
export function frontmatterValidator(): ValidateFunction {
  frontmatter ??= precompiledFrontmatter ?? newAjv(false).compile(skillFrontmatterSchema);
  return frontmatter;
}

let checker: Ajv | undefined;

/**
 * The ajv that compiles an author's schema (removed again after its check). A
 * schema that declares an `$id` gets an ajv of its own: its id could collide
 * with one the shared instance holds (even the meta-schema's), and removing it
 * afterwards would remove that one too.
 */
export function schemaChecker(schema?: unknown): Ajv {
  if (schema !== undefined && typeof schema === 'object' && JSON.stringify(schema).includes('"$id"')) return newAjv(true);
  checker ??= newAjv(true);
  return checker;
}
