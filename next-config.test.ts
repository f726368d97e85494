// next.config.mjs: what `next start` does as it starts (bench:start measures its first page).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

type Config = { experimental?: { preloadEntriesOnStart?: boolean } };

test("`next start` loads a page's or route's code on its first request, not all of it as it starts", async () => {
  const file: string = './next.config.mjs'; // a value: the config has no types of its own
  const { default: config } = (await import(file)) as { default: Config };
  // preloading every entry (Next's default) costs ~0.4 s of CPU before the first page, competing with the store's opening
  assert.equal(config.experimental?.preloadEntriesOnStart, false);
});

/** next.config.mjs's `key` as a fresh node process with only `env` set sees it (the config reads its env as it loads) */
function configIn<T>(key: 'typescript' | 'experimental', env: Record<string, string>): T | null {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const { default: c } = await import('./next.config.mjs'); console.log(JSON.stringify(c.${key} ?? null))`], {
    encoding: 'utf8',
    env: { NODE_ENV: 'production', PATH: process.env.PATH, ...env },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T | null;
}

test('the build type-checks, unless npm test has just done it with tsc (STAGECRAFT_TYPES_CHECKED=1)', () => {
  const read = (env: Record<string, string>) => configIn<{ ignoreBuildErrors?: boolean }>('typescript', env);
  // `npm run build`, `npm start`: a type error fails the build
  assert.notEqual(read({})?.ignoreBuildErrors, true);
  assert.notEqual(read({ STAGECRAFT_TYPES_CHECKED: 'yes' })?.ignoreBuildErrors, true);
  assert.equal(read({ STAGECRAFT_TYPES_CHECKED: '1' })?.ignoreBuildErrors, true);
});

test('the build keeps its Turbopack cache for the next build, unless told it will not come (STAGECRAFT_BUILD_CACHE=off: .ci/run, a clean clone)', () => {
  const read = (env: Record<string, string>) => configIn<{ turbopackFileSystemCacheForBuild?: boolean }>('experimental', env);
  // Next's own default (true) stays for `npm run build` and `npm start`'s rebuilds
  assert.equal(read({})?.turbopackFileSystemCacheForBuild, true);
  assert.equal(read({ STAGECRAFT_BUILD_CACHE: 'on' })?.turbopackFileSystemCacheForBuild, true);
  assert.equal(read({ STAGECRAFT_BUILD_CACHE: 'off' })?.turbopackFileSystemCacheForBuild, false);
});
