// A compiled bench loads what the shipped CLI would for the same work (bench/compile.mjs): split, so a module
// imported dynamically (the embedded store, Prisma's client) loads only when imported — bench:store's crash resume
// on Postgres never loads PGlite — and with the packages the CLI bundles (ajv, yaml, re2js, …) in vendor.cjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { compileBench, moveBuild } from './compile.mjs';
import { loadTracer } from '../cli/testing/traced-cli';

/** every module URL `node <module> ...args` resolves, until it exits */
function tracedRun(module: string, args: string[]): { status: number | null; stderr: string; modules: string[] } {
  const tracer = loadTracer();
  try {
    const r = spawnSync(process.execPath, [...tracer.nodeArgs, module, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } });
    return { status: r.status, stderr: r.stderr, modules: tracer.modules() };
  } finally {
    tracer.done();
  }
}

test("bench:store compiled loads neither PGlite nor Prisma's client as it starts, and the CLI's bundled packages from vendor.cjs", async () => {
  const module = await compileBench('bench/bench-store.ts');
  // a mode it does not know: it loads its modules, then says so and exits
  const r = tracedRun(module, ['--mode', 'none']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--mode none/);
  assert.ok(r.modules.some((m) => m.endsWith('/vendor-cache.mjs') || /\/chunk-[^/]+\.mjs$/.test(m)), r.modules.join('\n'));
  assert.deepEqual(r.modules.filter((m) => /node_modules\/(@electric-sql\/pglite|pglite-prisma-adapter|@prisma\/(client|adapter-pg))\//.test(m)), []);
  // ajv's compiler, yaml and re2js as the CLI loads them: one file through V8's code cache, not their hundreds of modules
  assert.deepEqual(r.modules.filter((m) => /node_modules\/(yaml|re2js|ajv-formats)\//.test(m) || /node_modules\/ajv\/dist\/(2020|core|compile)/.test(m)), []);
});

test("a bench of the studio's code (bench:editor) resolves the app's `@/` paths when compiled: none is left for node to find as a package", async () => {
  const module = await compileBench('scripts/bench-editor.ts');
  const { readdirSync, readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const dir = path.dirname(module);
  const texts = readdirSync(dir).filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(path.join(dir, f), 'utf8'));
  assert.ok(texts.length > 0);
  assert.deepEqual(texts.flatMap((t) => t.match(/from\s*["']@\/[^"']*["']|import\(\s*["']@\/[^"']*["']/g) ?? []), []);
});

test('a build whose folder another process has just put in place is dropped, not a failure (ENOTEMPTY): that folder holds the same build', async () => {
  const { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const root = mkdtempSync(path.join(tmpdir(), 'sc-bench-build-'));
  try {
    const [mine, theirs, target] = ['out-1-1', 'out-2-2', 'bench-store-0123456789ab'].map((d) => path.join(root, d));
    for (const [dir, who] of [[mine, 'mine'], [theirs, 'theirs']]) {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'bench-store.mjs'), who);
    }
    moveBuild(theirs, target); // the other process's rename came first
    moveBuild(mine, target);
    assert.equal(readFileSync(path.join(target, 'bench-store.mjs'), 'utf8'), 'theirs');
    assert.equal(existsSync(mine), false, 'the build made a second time is removed');
    // any other failure is one: a build folder that cannot be put in place
    mkdirSync(mine);
    assert.throws(() => moveBuild(mine, path.join(root, 'nowhere', 'bench-store-x')), /ENOENT/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
