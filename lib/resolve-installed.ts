/**
 * Where a file of an installed package is, resolved at run time: from this
 * module first, then from the project root (`process.cwd()`). A bundler (Next)
 * moves modules away from node_modules, so the first may fail where the second
 * works. The specifier reaches `resolve` as a value, never a literal a bundler
 * could rewrite into a module id.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The absolute path of `specifier`; throws the last resolution error when neither base has it. */
export function resolveInstalled(specifier: string): string {
  let last: unknown;
  for (const base of [import.meta.url, path.join(process.cwd(), 'package.json')]) {
    try {
      if (!base.startsWith('file:') && !path.isAbsolute(base)) continue;
      return createRequire(base).resolve(specifier);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}
