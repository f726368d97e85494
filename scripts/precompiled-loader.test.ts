// The app's build turns each `*-precompiled.ts` stub into ajv's standalone code (precompiled-loader.cjs,
// next.config.mjs): the text it hands the bundler validates as the run-time validators do once bundled,
// names what it was made from, is made again when that changes, and refuses a stub it has no validator for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { parse as parseYaml } from 'yaml';
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../lib/skill/ajv';
import { skillFrontmatterSchema } from '../lib/skill/schema';

const root = path.resolve(import.meta.dirname, '..');
const loader = createRequire(import.meta.url)('./precompiled-loader.cjs') as ((this: unknown, source: string) => void) & {
  testing: { generations(): number; dependOn(file: string): void };
};

/** the loader run on `stub` as the bundler runs it: its text and the files it said it depends on */
function load(stub: string): Promise<{ text: string; deps: string[] }> {
  return new Promise((resolve, reject) => {
    const deps: string[] = [];
    loader.call(
      {
        resourcePath: path.join(root, stub),
        addDependency: (f: string) => deps.push(path.relative(root, f)),
        async: () => (e: Error | null, text?: string) => (e ? reject(e) : resolve({ text: text!, deps })),
      },
      'export const stub = null;',
    );
  });
}

/** `text` bundled for the browser (as the app's build does: ajv's helpers from node_modules), then imported */
async function bundled(text: string, exportName: string): Promise<ValidateFunction> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-precompiled-test-'));
  try {
    const out = path.join(dir, 'out.mjs');
    await esbuild.build({ stdin: { contents: text, resolveDir: root, loader: 'js' }, bundle: true, platform: 'browser', format: 'esm', outfile: out, logLevel: 'error' });
    return (await import(pathToFileURL(out).href))[exportName] as ValidateFunction;
  } finally {
    await esbuild.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the app build's frontmatter validator, bundled, gives the verdict and the errors of the run-time one", async () => {
  const { text, deps } = await load('lib/skill/frontmatter-precompiled.ts');
  assert.doesNotMatch(text, /node:module|createRequire/, 'a bundler resolves its requires: no node-only import');
  assert.ok(deps.includes('lib/skill/schema.ts'), `the schema it was made from is a dependency: ${deps.join(', ')}`);
  const precompiled = await bundled(text, 'precompiledFrontmatter');
  const runtime = newAjv(false).compile(skillFrontmatterSchema);
  const example = parseYaml(readFileSync(path.join(root, 'examples/summarize/skill.md'), 'utf8').split(/^---$/m)[1]) as Record<string, unknown>;
  for (const doc of [example, { ...example, name: 'Bad Name' }, { name: 'x' }]) {
    assert.equal(precompiled(doc), runtime(doc), JSON.stringify(doc).slice(0, 80));
    assert.deepEqual(precompiled.errors ?? null, runtime.errors ?? null);
  }
  assert.equal(precompiled({ name: 'x' }), false);
});

test("the app build's meta-schema validator, bundled, checks schemas as ajv does", async () => {
  const { text } = await load('lib/kernel/meta-precompiled.ts');
  const meta = await bundled(text, 'precompiledMeta');
  assert.equal(meta({ type: 'object', properties: { a: { type: 'string' } } }), true);
  assert.equal(meta({ type: 12 }), false);
  assert.ok((meta.errors ?? []).length > 0);
});

test('the validators are made once for every stub, and again when what they are made from changes (next dev)', async () => {
  await load('lib/skill/frontmatter-precompiled.ts');
  const before = loader.testing.generations();
  await load('lib/kernel/meta-precompiled.ts');
  assert.equal(loader.testing.generations(), before, "the second stub shares the first one's generation");
  // a file they were made from (a stand-in: the checkout's own sources stay untouched) changes
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-precompiled-input-'));
  try {
    const input = path.join(dir, 'schema.ts');
    writeFileSync(input, 'export {};');
    loader.testing.dependOn(input);
    await load('lib/kernel/meta-precompiled.ts');
    assert.equal(loader.testing.generations(), before, 'nothing changed: not made again');
    utimesSync(input, new Date(), new Date(Date.now() + 60_000));
    await load('lib/kernel/meta-precompiled.ts');
    assert.equal(loader.testing.generations(), before + 1, 'an input changed: made again');
    const { text } = await load('lib/skill/frontmatter-precompiled.ts');
    assert.match(text, /export const precompiledFrontmatter = validate;/);
    assert.equal(loader.testing.generations(), before + 1, 'the other stub shares the new generation');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stub the loader has no validator for fails the build, saying where stubs are named; the app build uses the loader for the stubs', async () => {
  await assert.rejects(load('lib/skill/other-precompiled.ts'), /lib\/skill\/other-precompiled\.ts: no validator is made for this stub — scripts\/build-cli\.mjs PRECOMPILED/);
  const nextConfig = (await import(pathToFileURL(path.join(root, 'next.config.mjs')).href)).default as { turbopack?: { rules?: Record<string, { loaders: string[] }> } };
  const rules = nextConfig.turbopack?.rules ?? {};
  assert.deepEqual(rules['*-precompiled.ts']?.loaders.map((l) => path.relative(root, l)), ['scripts/precompiled-loader.cjs']);
});
