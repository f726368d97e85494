/**
 * The text of a module holding one of ajv's standalone validators, as the builds write it in place of
 * a `*-precompiled.ts` stub (frontmatter-standalone.ts, meta-standalone.ts). ajv's code `require`s
 * its run-time helpers (`ajv/dist/runtime/…`): for node, through a `createRequire` from `requireFrom`
 * (default: the module's own location); for a bundler (`'bundler'`: the app's build,
 * scripts/precompiled-loader.cjs), as they are, for the bundler to resolve. Build time only.
 */
export type RequireFrom = string | 'bundler' | undefined;

export function standaloneModuleText(code: string, exportName: string, requireFrom: RequireFrom): string {
  const body = `${code.replace(/^"use strict";/, '')}\nexport const ${exportName} = validate;\n`;
  if (requireFrom === 'bundler') return body;
  const base = requireFrom ? JSON.stringify(requireFrom) : 'import.meta.url';
  return `import { createRequire } from 'node:module';\nconst require = createRequire(${base});\n${body}`;
}
