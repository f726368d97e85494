/**
 * The frontmatter validator compiled ahead of time, where the build made one: the CLI's build
 * (scripts/build-cli.mjs) and the app's (scripts/precompiled-loader.cjs) replace this module with ajv's standalone code for
 * `skillFrontmatterSchema` (frontmatter-standalone.ts), so `validate` does not spend most of its
 * time compiling the schema. Here, none: ajv compiles it on first use (ajv.ts).
 */
import type { ValidateFunction } from 'ajv';

export const precompiledFrontmatter: ValidateFunction | null = null;
