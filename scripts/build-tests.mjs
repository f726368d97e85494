/**
 * The node tests compiled to plain JavaScript before they run (scripts/test.mjs), as the shipped CLI
 * and the benches are (scripts/build-cli.mjs, bench/compile.mjs): one esbuild build of every test
 * file, split into shared chunks, in `.test-build/<pid>/` (ignored by git), each test at its own path
 * there (`cli/print.test.ts` → `.test-build/<pid>/cli/print.test.mjs`), removed once they ran.
 *
 * Why: through tsx every test process loaded tsx and its esbuild first, and every module it imported
 * went through tsx's hooks on a thread of their own — about 0.8 s of CPU a test file on this suite's
 * machine (a test of the inspector's timeline: 1.8 s through tsx, 0.95 compiled), some 200 s of CPU
 * over the ~240 files, on a 2-core machine whose suite is CPU-bound.
 *
 * What stays as it was under tsx: `import.meta.url`, `import.meta.dirname` and `import.meta.filename`
 * in a project module are its source file's (so paths a module resolves next to itself still point
 * into the checkout); npm packages stay imports from node_modules; names stay (esbuild's keepNames, as
 * tsx's: a class's or function's `name` is the one in the source, never a renamed duplicate); the
 * skill.md validators are compiled by ajv at run time, as under tsx (the shipped CLI precompiles them).
 * A test that imports a module by a path computed at run time (`import(file)`, which could name a
 * TypeScript file) cannot be compiled ahead: it still runs through tsx (`needsTsx`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_BUILD = path.join(ROOT, '.test-build');

/** a test that imports by a computed path (`import(file)`, `import(\`./x.ts?copy\`)`): it runs through tsx */
export function needsTsx(file) {
  return /\bimport\(\s*[^'"\s)]/.test(readFileSync(path.resolve(ROOT, file), 'utf8'));
}

/** `import.meta.url`, `.dirname` and `.filename` of a project module → its source file's */
function sourceMetaPlugin() {
  return {
    name: 'source-meta',
    setup(build) {
      build.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const loader = /\.m?ts$/.test(args.path) ? 'ts' : args.path.endsWith('.tsx') ? 'tsx' : 'js';
        return {
          contents: text
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
            .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
            .replaceAll('import.meta.filename', JSON.stringify(args.path)),
          loader,
        };
      });
    },
  };
}

/** whether process `pid` is alive */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** a bare import's package: `a` of `a/b/c`, `@s/a` of `@s/a/b` */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/**
 * npm packages stay imports, as node resolves them — but a subpath without an extension of a package
 * with no `exports` map (`next/server`), which tsx resolved as a bundler does and node does not, is
 * given its `.js` (`next/server.js`), the file tsx loaded.
 */
function packagesPlugin() {
  return {
    name: 'packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        // node's own modules, and the app's `@/…` paths (tsconfig.json), are esbuild's to resolve
        if (args.path.startsWith('node:') || args.path.startsWith('@/')) return undefined;
        const pkg = packageOf(args.path);
        const sub = args.path.slice(pkg.length);
        if (!sub || path.extname(sub)) return { path: args.path, external: true };
        try {
          if (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).exports) return { path: args.path, external: true };
        } catch {
          return { path: args.path, external: true }; // not installed here: node says so when it is imported
        }
        return { path: existsSync(path.join(ROOT, 'node_modules', pkg, `${sub}.js`)) ? `${args.path}.js` : args.path, external: true };
      });
    },
  };
}

/**
 * Compiles `files` (test files, paths from the checkout's root) into a folder of this process's own,
 * `.test-build/<pid>/` (two test commands may run at once in one checkout), the folders of processes
 * gone removed first. Returns the folder, to remove once the tests ran, and each file's compiled path,
 * in the same order.
 */
export async function buildTests(files) {
  const esbuild = await import('esbuild');
  mkdirSync(TEST_BUILD, { recursive: true });
  for (const d of readdirSync(TEST_BUILD)) if (!/^\d+$/.test(d) || !alive(Number(d))) rmSync(path.join(TEST_BUILD, d), { recursive: true, force: true });
  const dir = path.join(TEST_BUILD, String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(files.map((f) => [f.replace(/\.tsx?$/, ''), path.join(ROOT, f)]));
  try {
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints,
      outdir: dir,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      splitting: true,
      keepNames: true,
      chunkNames: '_chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
      logLevel: 'error',
      plugins: [packagesPlugin(), sourceMetaPlugin()],
    });
  } finally {
    // esbuild's service process, idle once built, would sit beside the tests as they run: stopped
    // (a later build starts it again)
    await esbuild.stop();
  }
  return { dir, files: files.map((f) => path.join(dir, `${f.replace(/\.tsx?$/, '')}.mjs`)) };
}
