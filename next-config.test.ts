// next.config.mjs: what `next start` does as it starts (bench:start measures its first page).
import assert from 'node:assert/strict';
import { test } from 'node:test';

type Config = { experimental?: { preloadEntriesOnStart?: boolean } };

test("`next start` loads a page's or route's code on its first request, not all of it as it starts", async () => {
  const file: string = './next.config.mjs'; // a value: the config has no types of its own
  const { default: config } = (await import(file)) as { default: Config };
  // preloading every entry (Next's default) costs ~0.4 s of CPU before the first page, competing with the store's opening
  assert.equal(config.experimental?.preloadEntriesOnStart, false);
});
