/**
 * A bench script compiled to one plain JavaScript module, for the processes a bench times from their
 * start (the crash test's worker and resume): they then load as a shipped build loads, not through
 * a TypeScript loader. esbuild bundles the project's modules (packages stay imports, resolved from
 * the checkout's node_modules); `import.meta.url` in each is rewritten to its source file's URL, so
 * the paths a module resolves next to itself (the sandbox's worker scripts, prisma/, the generated
 * client) still point into the checkout. The skill.md frontmatter validator and JSON Schema's meta-schema
 * are compiled ahead of time, as the shipped CLI's are (scripts/build-cli.mjs), not by ajv on every start. The output is
 * `.bench-build/<name>.mjs` (ignored by git).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export async function compileBench(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  const outDir = path.join(ROOT, '.bench-build');
  mkdirSync(outDir, { recursive: true });
  const cli = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'build-cli.mjs')).href)) as {
    precompiledTexts(esbuild: unknown, staging: string): Promise<Record<string, string>>;
    precompiledPlugin(texts: Record<string, string>): import('esbuild').Plugin;
    NODE_BUNDLE: Pick<import('esbuild').BuildOptions, 'bundle' | 'format' | 'platform' | 'target' | 'packages'>;
  };
  const precompiled = await cli.precompiledTexts(esbuild, outDir);
  const outfile = path.join(outDir, `${path.basename(entry).replace(/\.ts$/, '')}.mjs`);
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.resolve(ROOT, entry)],
    outfile,
    ...cli.NODE_BUNDLE,
    logLevel: 'error',
    plugins: [
      cli.precompiledPlugin(precompiled),
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
  return outfile;
}
