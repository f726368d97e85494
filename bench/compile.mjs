/**
 * A bench script compiled to one plain JavaScript module, as a shipped build is (scripts/build-cli.mjs):
 * every bench that times our code runs so (bench/run-compiled.mjs), not through tsx, whose esbuild
 * keepNames (a `__name` call per function made) and source maps the shipped CLI has neither of — at
 * 200 runs × 5 pure steps, c=8, node's main thread spent 1.60 ms a run through tsx against 1.30
 * compiled (6 of 6 interleaved pairs, load 8–10). The crash test's worker and bench:store's crash
 * worker and resume load this way too. esbuild bundles the project's modules (packages stay imports,
 * resolved from the checkout's node_modules); `import.meta.url` in each is rewritten to its source
 * file's URL, so the paths a module resolves next to itself (the sandbox's worker scripts, prisma/,
 * the generated client) still point into the checkout. The skill.md frontmatter validator and JSON
 * Schema's meta-schema are compiled ahead of time, as the shipped CLI's are, not by ajv on every start.
 * `STAGECRAFT_BENCH_COMPILED` is defined `true` in the output (bench/compiled.ts reads it), so a
 * bench's JSON line can say how it ran.
 *
 * Split as the shipped CLI is (esbuild's code splitting): a module the sources import dynamically is a
 * chunk loaded when it is imported, with the packages it imports — as in a bundle of one file it would
 * not be (esbuild hoists an external package's import to the top of that file): the crash resume of
 * bench:store on Postgres would load PGlite, Prisma's client and the migration engine, which the
 * product's resume never loads (~300 ms of CPU, most of a resume's start on a loaded machine).
 *
 * The output is `.bench-build/<name>-<hash>/<name>.mjs` and its chunks (ignored by git), beside
 * `<name>.json`: the entry, the folder, and every source the module was made from (size and mtime, as
 * dist/manifest.json); the validators' texts, the same for every bench, are kept in `precompiled.json`
 * the same way. While none of them changed, the module is reused without loading esbuild: `npm test`
 * runs each bench once, and a bench that compiles a second entry or itself again (bench:store's crash
 * mode) pays nothing more. A build is made in a folder of its own and renamed (its name is the hash of
 * what it holds), and the JSON under a temporary name, so processes compiling at once never see half
 * a module; folders of an older build are removed once no process can still be loading them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { VENDOR_FILE } from '../scripts/vendor-cache.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.bench-build');
/** what makes a build besides its inputs: a change to either compiles every bench again */
const TOOLS = ['bench/compile.mjs', 'scripts/build-cli.mjs'];
/** a build this much older than the current one is no longer loaded by anyone */
const OLD_BUILD_MS = 10 * 60 * 1000;

const stamp = (file) => {
  const st = statSync(path.join(ROOT, file));
  return { file, size: st.size, mtimeMs: st.mtimeMs };
};
/** the project's own files among esbuild's inputs */
const ours = (files) => [...new Set(files)].filter((f) => !f.startsWith('node_modules/') && !f.includes(':')).sort();

/** the JSON at `file` when it is there and none of the sources it lists changed since, else null */
function current(file) {
  try {
    const m = JSON.parse(readFileSync(file, 'utf8'));
    return m.sources.every((s) => {
      const now = stamp(s.file);
      return now.size === s.size && now.mtimeMs === s.mtimeMs;
    })
      ? m
      : null;
  } catch {
    return null; // none yet, or a source gone
  }
}

/** `value` and the stamps of `sources` into `file`, under a temporary name first */
function writeCurrent(file, value, sources) {
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify({ ...value, sources: sources.map(stamp) }, null, 1));
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/** the validators' module texts (the same for every bench): made once, then reused while their generators' sources are unchanged */
async function precompiled(esbuild, cli, staging) {
  const file = path.join(OUT_DIR, 'precompiled.json');
  const kept = current(file);
  if (kept) return { texts: kept.texts, sources: kept.sources.map((s) => s.file) };
  const inputs = new Set();
  const texts = await cli.precompiledTexts(esbuild, staging, inputs);
  const sources = ours([...inputs, ...cli.PRECOMPILED_GENERATORS, ...TOOLS]);
  writeCurrent(file, { texts }, sources);
  return { texts, sources };
}

/** compiles `entry` (a path from the checkout's root, or absolute) unless its module is current; returns the module's path */
export async function compileBench(entry) {
  const rel = path.relative(ROOT, path.resolve(ROOT, entry)).split(path.sep).join('/');
  const name = path.basename(rel).replace(/\.[cm]?[tj]s$/, '');
  const manifest = path.join(OUT_DIR, `${name}.json`);
  const kept = current(manifest);
  if (kept?.entry === rel && kept.dir && existsSync(path.join(OUT_DIR, kept.dir, `${name}.mjs`))) return path.join(OUT_DIR, kept.dir, `${name}.mjs`);

  const esbuild = await import('esbuild');
  const cli = await import(pathToFileURL(path.join(ROOT, 'scripts', 'build-cli.mjs')).href);
  // the validators' generators run from a folder of this process's own (another may compile at once), the build in another
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = path.join(OUT_DIR, `staging-${stamp}`);
  const out = path.join(OUT_DIR, `out-${stamp}`);
  mkdirSync(staging, { recursive: true });
  let result, validators, vendorInputs;
  const specs = new Set();
  try {
    validators = await precompiled(esbuild, cli, staging);
    result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: { [name]: path.join(ROOT, rel) },
      outdir: out,
      ...cli.NODE_BUNDLE,
      // the packages the command bundles (ajv, yaml, re2js, …) in vendor.cjs beside the chunks, loaded through V8's code cache
      packages: undefined,
      splitting: true,
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      outExtension: { '.js': '.mjs' },
      define: { STAGECRAFT_BENCH_COMPILED: 'true' },
      metafile: true,
      logLevel: 'error',
      plugins: [
        cli.packagesPlugin(specs),
        cli.precompiledPlugin(validators.texts),
        cli.sourceUrlPlugin((file) => JSON.stringify(pathToFileURL(file).href)),
      ],
    });
    vendorInputs = await cli.buildVendor(esbuild, specs, path.join(out, VENDOR_FILE));
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  // the folder's name is the hash of what it holds: a build of the same sources is the same folder
  const dir = `${name}-${await cli.buildHash(result.metafile.outputs, out)}`;
  const target = path.join(OUT_DIR, dir);
  moveBuild(out, target);
  writeCurrent(manifest, { entry: rel, dir }, ours([...Object.keys(result.metafile.inputs), ...validators.sources, ...TOOLS]).concat(cli.bundledPackageFiles(vendorInputs)));
  removeOldBuilds(name, dir);
  return path.join(target, `${name}.mjs`);
}

/**
 * The build made in `out` put at `target`, its hash's name; or dropped when that folder is there already:
 * a build of the same sources, by this process earlier or by another compiling the same bench at once
 * (two test files of the unit stage do: its rename came between a check that the folder was not there
 * and this rename, which failed with ENOTEMPTY). A rename is whole or nothing, so the folder there holds
 * a whole build.
 */
export function moveBuild(out, target) {
  try {
    renameSync(out, target);
  } catch (e) {
    if (!((e.code === 'ENOTEMPTY' || e.code === 'EEXIST') && existsSync(target))) throw e;
    rmSync(out, { recursive: true, force: true });
  }
}

/** the folders of `name`'s earlier builds (and of builds that failed half way), once no process can still be loading them */
function removeOldBuilds(name, dir) {
  for (const d of readdirSync(OUT_DIR)) {
    if (d === dir || !(new RegExp(`^${name}-[0-9a-f]{12}$`).test(d) || /^out-\d+-\d+$/.test(d))) continue;
    const p = path.join(OUT_DIR, d);
    try {
      if (Date.now() - statSync(p).mtimeMs > OLD_BUILD_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}
