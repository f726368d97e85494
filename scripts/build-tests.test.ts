// The node tests run compiled (scripts/build-tests.mjs): a module compiled so says of itself what its
// source says under tsx — its own URL, folder and file, its classes' names — and a subpath of a package
// without an `exports` map (`next/server`) loads; a test importing by a computed path is left to tsx.
// Once built, esbuild's service process is stopped: it does not sit beside the tests as they run.
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error: a plain JavaScript module of the repository's scripts, without types
import { buildTests, needsTsx } from './build-tests.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

test('a compiled module names its source file, keeps its names, and loads next/server', async () => {
  const source = path.join(ROOT, 'scripts/fixtures/compiled-meta.ts');
  const built = (await buildTests(['scripts/fixtures/compiled-meta.ts'])) as { dir: string; files: string[] };
  try {
    assert.ok(built.files[0].startsWith(built.dir), built.files[0]);
    const { meta } = await import(pathToFileURL(built.files[0]).href);
    assert.deepEqual(meta, { url: pathToFileURL(source).href, dirname: path.dirname(source), filename: source, className: 'Named', nextLoaded: 'function' });
  } finally {
    rmSync(built.dir, { recursive: true, force: true });
  }
});

test('a test that imports by a computed path runs through tsx; one importing by literal paths compiled', () => {
  assert.equal(needsTsx('lib/kernel/errors.test.ts'), true);
  assert.equal(needsTsx('next-config.test.ts'), true);
  assert.equal(needsTsx('cli/print.test.ts'), false);
});

test("the build's esbuild process is stopped once it built: it does not sit beside the tests", () => {
  // a process of its own, which built nothing before and loads no tsx (whose own esbuild runs beside it)
  const left = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fixtures/built-leaves.mjs')], { cwd: ROOT, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(left), [], 'no esbuild service left running by the build');
});
