// The app's build (next.config.mjs `turbopack.rules`): each `*-precompiled.ts` stub — the skill.md
// frontmatter validator (lib/skill/frontmatter-precompiled.ts) and JSON Schema's meta-schema
// (lib/kernel/meta-precompiled.ts) — becomes ajv's standalone code, compiled here once per build,
// as the CLI's build does (scripts/build-cli.mjs `precompiledTexts`). Without it the studio compiled
// both with ajv as it opened, on the page's main thread and again in its analysis worker: 110–250 ms
// each on this project's 2-core machine. A stub the build does not know is an error (it is
// TypeScript, which the rule hands on as JavaScript).
const { mkdirSync, mkdtempSync, rmSync, statSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..');
/** the generation the stubs of a build share: { promise of { texts, inputs }, signature of its inputs once known } */
let made = null;
let generations = 0;

/** what the generators were made from, as their files stand now: a change (`next dev` watching) makes them again */
function signatureOf(inputs) {
  return [...inputs]
    .map((f) => {
      try {
        return `${f}@${statSync(path.resolve(root, f)).mtimeMs}`;
      } catch {
        return `${f}@gone`;
      }
    })
    .join('\n');
}

function make() {
  if (made?.signature !== undefined && signatureOf(made.inputs) !== made.signature) made = null;
  if (made) return made.promise;
  const entry = { inputs: new Set(), signature: undefined, promise: null };
  entry.promise = (async () => {
    generations++;
    const esbuild = await import('esbuild');
    const { precompiledTexts } = await import(pathToFileURL(path.join(__dirname, 'build-cli.mjs')).href);
    // inside the checkout (the generators import ajv from its node_modules), in the build's own cache
    const cache = path.join(root, '.next', 'cache');
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(path.join(cache, 'stagecraft-precompiled-'));
    try {
      const texts = await precompiledTexts(esbuild, staging, entry.inputs, 'bundler');
      entry.signature = signatureOf(entry.inputs);
      return { texts, inputs: entry.inputs };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  })();
  // a generation that failed is not kept: the next stub asks again
  entry.promise.catch(() => {
    if (made === entry) made = null;
  });
  made = entry;
  return entry.promise;
}

module.exports = function precompiledLoader() {
  const done = this.async();
  const stub = path.relative(root, this.resourcePath).split(path.sep).join('/');
  make().then(
    ({ texts, inputs }) => {
      if (!(stub in texts)) return done(new Error(`${stub}: no validator is made for this stub — scripts/build-cli.mjs PRECOMPILED names the stubs and their generators`));
      // a watching build makes the stub again when what its validator was made from changes
      if (typeof this.addDependency === 'function') for (const f of inputs) this.addDependency(path.resolve(root, f));
      done(null, texts[stub]);
    },
    (e) => done(e instanceof Error ? e : new Error(String(e))),
  );
};
/** for its test: how many times the validators were made in this process; a file counted among what the last were made from */
module.exports.testing = {
  generations: () => generations,
  dependOn(file) {
    made.inputs.add(file);
    made.signature = signatureOf(made.inputs);
  },
};
