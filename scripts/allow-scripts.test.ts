// Every dependency with an install script is decided in package.json's `allowScripts`: npm 12 runs
// no dependency's install script it does not allow (npm 11.16+ warns on every install), so a new one
// must be looked at — allowed when the package needs it, denied when it does not — not left to chance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (name: string) => JSON.parse(readFileSync(path.join(root, name), 'utf8'));

/** the packages of the lockfile whose install script npm would run (the root's own scripts are not gated) */
function withInstallScripts(lock: { packages: Record<string, { hasInstallScript?: boolean }> }): string[] {
  return Object.entries(lock.packages)
    .filter(([where, p]) => where !== '' && p.hasInstallScript)
    .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .sort();
}

test('every dependency with an install script is allowed or denied in package.json (allowScripts)', () => {
  const allow: Record<string, boolean> = read('package.json').allowScripts ?? {};
  const names = withInstallScripts(read('package-lock.json'));
  assert.ok(names.length > 0, 'the lockfile names no package with an install script: has its format changed?');
  const undecided = names.filter((n) => typeof allow[n] !== 'boolean');
  assert.deepEqual(undecided, [], `decide these in package.json's allowScripts (true: it needs its install script; false: it does not): ${undecided.join(', ')}`);
  // the ones the project relies on: esbuild's puts its native binary in place; @prisma/engines' would download native engines the app never uses
  assert.equal(allow.esbuild, true);
  assert.equal(allow['@prisma/engines'], false);
  // and no stale entries: each names a package that is installed and has a script
  assert.deepEqual(Object.keys(allow).filter((n) => !names.includes(n)), []);
});
