// The app's build (next.config.mjs `turbopack.rules`): each `*-precompiled.ts` stub — the skill.md
// frontmatter validator (lib/skill/frontmatter-precompiled.ts) and JSON Schema's meta-schema
// (lib/kernel/meta-precompiled.ts) — becomes ajv's standalone code, compiled here once per build,
// as the CLI's build does (scripts/build-cli.mjs `precompiledTexts`). Without it the studio compiled
// both with ajv as it opened, on the page's main thread and again in its analysis worker: 110–250 ms
// each on this project's 2-core machine. A stub the build does not know stays as it is.
const { mkdirSync, mkdtempSync, rmSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..');
/** one generation for every stub of a build: { texts, inputs } */
let made;

function make() {
  made ??= (async () => {
    const esbuild = await import('esbuild');
    const { precompiledTexts } = await import(pathToFileURL(path.join(__dirname, 'build-cli.mjs')).href);
    // inside the checkout: the generators import ajv from its node_modules
    const cache = path.join(root, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(path.join(cache, 'sc-precompiled-'));
    const inputs = new Set();
    try {
      return { texts: await precompiledTexts(esbuild, staging, inputs, 'bundler'), inputs };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  })();
  return made;
}

module.exports = function precompiledLoader(source) {
  const done = this.async();
  const stub = path.relative(root, this.resourcePath).split(path.sep).join('/');
  make().then(
    ({ texts, inputs }) => {
      if (!(stub in texts)) return done(null, source);
      // a watching build makes the stub again when what its validator was made from changes
      if (typeof this.addDependency === 'function') for (const f of inputs) this.addDependency(path.resolve(root, f));
      done(null, texts[stub]);
    },
    (e) => done(e instanceof Error ? e : new Error(String(e))),
  );
};
