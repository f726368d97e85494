#!/usr/bin/env node
// `npm run build:cli` (also the last step of `postinstall`): compiles the `stagecraft` command and
// what `npm start` checks before starting into plain JavaScript under dist/, so nothing loads a
// TypeScript loader at run time.
//
// esbuild bundles the project's own modules (packages in node_modules stay imports) with code
// splitting: every command's module, imported when that command runs, is a chunk of its own, so
// `validate` never loads Prisma or PGlite. A few packages of plain JavaScript (BUNDLED_PACKAGES) are
// bundled apart, into vendor.cjs beside the chunks, which loads through V8's code cache
// (scripts/vendor-cache.mjs). The skill.md frontmatter validator and JSON Schema's
// meta-schema are compiled here too (ajv's standalone code: lib/skill/frontmatter-standalone.ts,
// lib/skill/meta-standalone.ts), not on every start. Every file lands flat in dist/build-<hash>/, two levels
// below the root, and `import.meta.url` in a project module is rewritten to that module's own
// source URL: paths it resolves next to itself (the sandbox's worker scripts, prisma/, the
// generated Prisma client) still point into the checkout.
//
// dist/manifest.json names the current build and every source it was made from (size and mtime),
// so bin/stagecraft.mjs can tell when the sources changed since. It is written last, atomically:
// a command starting during a build still loads the previous, complete one.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { VENDOR_FILE } from './vendor-cache.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
export const MANIFEST = path.join(dist, 'manifest.json');

/** the entry points: dist/<name>.mjs inside the build's folder */
const ENTRIES = {
  cli: 'cli/main.ts',
  'start-checks': 'scripts/start-checks.ts',
};
// a build this much older than the current one is no longer loaded by anyone
const OLD_BUILD_MS = 10 * 60 * 1000;

/**
 * `import.meta.url` of a project module → the URL of its source file: by default from a chunk two
 * levels below the root (dist/build-…/); `urlOf(file)` spells it otherwise (the benches: the file's
 * own URL, their build being in another folder).
 */
export function sourceUrlPlugin(urlOf = (file) => `new URL(${JSON.stringify(`../../${path.relative(root, file).split(path.sep).join('/')}`)}, import.meta.url).href`) {
  return {
    name: 'source-url',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        if (args.path === VENDOR_RUNTIME) return undefined; // finds vendor.cjs beside its own chunk
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js';
        return { contents: text.replaceAll('import.meta.url', urlOf(args.path)), loader };
      });
    },
  };
}

/**
 * The modules the build replaces with validators ajv compiles now, not on every start: each stub
 * (null there) → the generator (bundled on its own and run here) and the function that writes its text.
 */
const PRECOMPILED = [
  // the skill.md frontmatter validator
  { stub: 'lib/skill/frontmatter-precompiled.ts', generator: 'lib/skill/frontmatter-standalone.ts', make: 'frontmatterValidatorModule' },
  // JSON Schema 2020-12's meta-schema, against which every schema is checked (lib/kernel/meta-schema.ts)
  { stub: 'lib/kernel/meta-precompiled.ts', generator: 'lib/skill/meta-standalone.ts', make: 'metaValidatorModule' },
];
/** the generators: inputs of the build although no bundle imports them */
export const PRECOMPILED_GENERATORS = PRECOMPILED.map((p) => p.generator);

/** the stubs → the module texts that replace them */
export function precompiledPlugin(texts) {
  const byFile = new Map(Object.entries(texts).map(([stub, text]) => [path.join(root, stub), text]));
  return {
    name: 'precompiled-validators',
    setup(build) {
      build.onLoad({ filter: /-precompiled\.ts$/ }, (args) => (byFile.has(args.path) ? { contents: byFile.get(args.path), loader: 'js' } : undefined));
    },
  };
}

/** what every bundle of ours is: one ES module for node 20, its npm packages left to node_modules */
export const NODE_BUNDLE = { bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external' };

/**
 * The npm packages the command bundles, with what they import: plain JavaScript in dozens of small
 * CommonJS files each (ajv ~80, yaml ~70) that node would otherwise resolve, read and compile one
 * by one on every start. They are one CommonJS file, vendor.cjs, beside the chunks, which
 * scripts/vendor-cache.mjs loads through V8's code cache (no ES module's compile is cached in node
 * 20); every other package stays an import from node_modules.
 */
export const BUNDLED_PACKAGES = ['ajv', 'ajv-formats', 'yaml', 'jsondiffpatch', 're2js'];

/** a bare import's package: `a` of `a/b/c`, `@s/a` of `@s/a/b` */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

export const VENDOR_RUNTIME = path.join(root, 'scripts', 'vendor-cache.mjs');

/**
 * Packages stay imports from node_modules, but a BUNDLED_PACKAGES module is a CommonJS stand-in
 * that takes its exports from vendor.cjs (its named imports are property reads, as of any CommonJS
 * module); `specs` collects the modules imported so.
 */
export function packagesPlugin(specs) {
  const bundled = new Set(BUNDLED_PACKAGES);
  return {
    name: 'packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        // node's own modules, and the app's `@/…` paths (tsconfig.json: a bench of the studio's code imports them), are esbuild's to resolve
        if (args.path.startsWith('node:') || args.path.startsWith('@/')) return undefined;
        if (!bundled.has(packageOf(args.path))) return { path: args.path, external: true };
        specs.add(args.path);
        return { path: args.path, namespace: 'vendored' };
      });
      build.onLoad({ filter: /.*/, namespace: 'vendored' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(VENDOR_RUNTIME)}).vendored(${JSON.stringify(args.path)});`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/** vendor.cjs: each of `specs` as a function that evaluates it (on first use, as an import would) */
export async function buildVendor(esbuild, specs, outfile) {
  const entry = `module.exports = {\n${[...specs]
    .sort()
    .map((s) => `  ${JSON.stringify(s)}: () => require(${JSON.stringify(s)}),`)
    .join('\n')}\n};\n`;
  const result = await esbuild.build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'vendor-entry.cjs', loader: 'js' },
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'error',
  });
  return Object.keys(result.metafile.inputs);
}

/** the package.json of every package a build took files from: a new version of one is a change of the build's sources */
export function bundledPackageFiles(inputs) {
  const files = new Set();
  for (const f of inputs) {
    const m = /^(.*?node_modules\/(?:@[^/]+\/)?[^/@][^/]*)\//.exec(f);
    if (m) files.add(`${m[1]}/package.json`);
  }
  return [...files];
}

/**
 * each stub's module text: its generator, bundled on its own and run; `inputs`, if given, collects what
 * the generators were bundled from; `requireFrom`: where the text's `require`s resolve from
 * (lib/skill/standalone-text.ts: default, the module's own location; 'bundler' for the app's build)
 */
export async function precompiledTexts(esbuild, staging, inputs, requireFrom) {
  const texts = {};
  for (const { stub, generator, make } of PRECOMPILED) {
    const out = path.join(staging, `${path.basename(generator, '.ts')}.gen.mjs`);
    const built = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [path.join(root, generator)],
      outfile: out,
      ...NODE_BUNDLE,
      metafile: Boolean(inputs),
      logLevel: 'error',
    });
    if (inputs) for (const f of Object.keys(built.metafile.inputs)) inputs.add(f);
    try {
      texts[stub] = (await import(pathToFileURL(out).href))[make](requireFrom);
    } finally {
      rmSync(out, { force: true });
    }
  }
  return texts;
}

/** the generated Prisma client the store imports (`npm run db:generate`; not in git) */
export const PRISMA_CLIENT = 'lib/store/generated/prisma/client.ts';

/**
 * Throws, saying what to run, when the Prisma client is not generated in `dir`: esbuild would fail on
 * its import ("Could not resolve ./generated/prisma/client"), and running build:cli again cannot help.
 */
export function requireGeneratedClient(dir = root) {
  if (existsSync(path.join(dir, PRISMA_CLIENT))) return;
  throw Object.assign(new Error(`the Prisma client is not generated (${PRISMA_CLIENT} is missing)`), {
    hint: `Run \`npm run db:generate\` in ${dir} (npm install runs it), then the command again.`,
  });
}

/**
 * A build's own folder, to be renamed into dist/build-*: several commands may build at once (the
 * sources changed under each of them). Readable by everyone, as dist/ is: mkdtemp makes it 0700, and
 * a CLI built by root (npm install's postinstall) could then be run by no other user.
 */
export function stagingFolder(distDir) {
  const staging = mkdtempSync(path.join(distDir, `staging-${process.pid}-`));
  chmodSync(staging, 0o755);
  return staging;
}

export async function buildCli({ quiet = false } = {}) {
  requireGeneratedClient();
  const esbuild = await import('esbuild');
  mkdirSync(dist, { recursive: true });
  const staging = stagingFolder(dist);
  const precompiled = await precompiledTexts(esbuild, staging);
  const specs = new Set();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir: staging,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    ...NODE_BUNDLE,
    packages: undefined,
    splitting: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [packagesPlugin(specs), precompiledPlugin(precompiled), sourceUrlPlugin()],
  });
  const vendorInputs = await buildVendor(esbuild, specs, path.join(staging, VENDOR_FILE));
  // the folder's name is the hash of what was built, so a rebuild of the same sources changes nothing
  // (the generators of the precompiled validators are no inputs of the bundle, but what they write is)
  const inputs = [...new Set([...Object.keys(result.metafile.inputs), ...PRECOMPILED_GENERATORS])]
    .filter((f) => !f.startsWith('node_modules/') && !f.includes(':'))
    .concat(bundledPackageFiles(vendorInputs))
    .sort();
  const sources = inputs.map((f) => {
    const st = statSync(path.join(root, f));
    return { file: f, size: st.size, mtimeMs: st.mtimeMs };
  });
  const name = `build-${await buildHash(result.metafile.outputs, staging)}`;
  const target = path.join(dist, name);
  settle(staging, target);
  const tmp = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ build: name, entries: Object.keys(ENTRIES), sources }, null, 1));
  renameSync(tmp, MANIFEST);
  removeOldBuilds(dist, name);
  if (!quiet) console.log(`build:cli: dist/${name} (${sources.length} sources)`);
  return name;
}

/**
 * `staging` becomes the build `target`, or goes when another build of the same sources is there
 * already — found before, or made by a build that finished in between (the rename then fails)
 */
export function settle(staging, target) {
  try {
    if (!existsSync(target)) return renameSync(staging, target);
  } catch (e) {
    if (!existsSync(target)) throw e;
  }
  rmSync(staging, { recursive: true, force: true });
}

/** removes from `dir` the builds (and stagings) no command can still be loading, but `keep`; one another build removes or renames meanwhile is passed over */
export function removeOldBuilds(dir, keep, now = Date.now(), entries = readdirSync(dir)) {
  for (const d of entries) {
    if (d === keep || !/^(build|staging)-/.test(d)) continue;
    const p = path.join(dir, d);
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      if (e?.code === 'ENOENT') continue;
      throw e;
    }
    if (now - st.mtimeMs > OLD_BUILD_MS) rmSync(p, { recursive: true, force: true });
  }
}

/** a build's name: the hash of what esbuild wrote (`outputs`, its metafile's, from the root) and of vendor.cjs in `dir` */
export async function buildHash(outputs, dir) {
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
  for (const f of Object.keys(outputs).sort()) hash.update(path.basename(f)).update(readFileSync(path.join(root, f)));
  hash.update(VENDOR_FILE).update(readFileSync(path.join(dir, VENDOR_FILE)));
  return hash.digest('hex').slice(0, 12);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildCli();
  } catch (e) {
    console.error(`build:cli: ${e instanceof Error ? e.message : String(e)}${e?.hint ? `\n  ${e.hint}` : ''}`);
    process.exit(1);
  }
}
