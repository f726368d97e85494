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
 * The output is `.bench-build/<name>.mjs` (ignored by git), beside `<name>.json`: the entry and every
 * source the module was made from (size and mtime, as dist/manifest.json); the validators' texts, the
 * same for every bench, are kept in `precompiled.json` the same way. While none of them changed,
 * the module is reused without loading esbuild: `npm test` runs each bench once, and a bench that
 * compiles a second entry or itself again (bench:store's crash mode) pays nothing more. Outputs are
 * written under a temporary name and renamed, so processes compiling at once never see half a module.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.bench-build');
/** what makes a build besides its inputs: a change to either compiles every bench again */
const TOOLS = ['bench/compile.mjs', 'scripts/build-cli.mjs'];

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
  const outfile = path.join(OUT_DIR, `${path.basename(rel).replace(/\.[cm]?[tj]s$/, '')}.mjs`);
  const manifest = outfile.replace(/\.mjs$/, '.json');
  if (existsSync(outfile) && current(manifest)?.entry === rel) return outfile;

  const esbuild = await import('esbuild');
  const cli = await import(pathToFileURL(path.join(ROOT, 'scripts', 'build-cli.mjs')).href);
  // the validators' generators run from a folder of this process's own (another may compile at once)
  const staging = path.join(OUT_DIR, `staging-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  const tmp = `${outfile}.${process.pid}.tmp.mjs`;
  let result, validators;
  try {
    validators = await precompiled(esbuild, cli, staging);
    result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [path.join(ROOT, rel)],
      outfile: tmp,
      ...cli.NODE_BUNDLE,
      define: { STAGECRAFT_BENCH_COMPILED: 'true' },
      metafile: true,
      logLevel: 'error',
      plugins: [
        cli.precompiledPlugin(validators.texts),
        {
          name: 'source-url',
          setup(build) {
            build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, (args) => {
              if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
              const text = readFileSync(args.path, 'utf8');
              if (!text.includes('import.meta.url')) return undefined;
              return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js' };
            });
          },
        },
      ],
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  renameSync(tmp, outfile);
  writeCurrent(manifest, { entry: rel }, ours([...Object.keys(result.metafile.inputs), ...validators.sources, ...TOOLS]));
  return outfile;
}
