/**
 * JSON Schema 2020-12's meta-schema as a validator compiled ahead of time, where the build made
 * one: the CLI's build (scripts/build-cli.mjs) and the app's (scripts/precompiled-loader.cjs)
 * replace this module with ajv's standalone code for the meta-schema
 * (lib/skill/meta-standalone.ts), so checking a schema does not first spend
 * 50–150 ms compiling the meta-schema in each ajv instance. Here, none: each ajv compiles it on
 * first use, as it always did (meta-schema.ts).
 */
import type { ValidateFunction } from 'ajv';

export const precompiledMeta: ValidateFunction | null = null;
