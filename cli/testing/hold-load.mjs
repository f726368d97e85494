// For tests of what a command does while node is still loading its modules: a module-loader hook,
// preloaded with `node --import ./cli/testing/hold-load.mjs bin/stagecraft.mjs …`. It writes
// `hold-load: built` to stderr when bin/stagecraft.mjs imports scripts/built.mjs (the first import
// after bin's own first lines) and `hold-load: cli` when it imports the compiled command; with
// HOLD_LOAD_UNTIL=FILE it holds that second import until FILE exists (at most 60 s), so a test can
// act at a moment it knows is inside the load.
import { existsSync, writeSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function resolve(specifier, context, next) {
  const out = await next(specifier, context);
  if (/\/scripts\/built\.mjs$/.test(out.url)) writeSync(2, 'hold-load: built\n');
  if (/\/dist\/build-[^/]+\/cli\.mjs$/.test(out.url)) {
    writeSync(2, 'hold-load: cli\n');
    const until = process.env.HOLD_LOAD_UNTIL;
    for (let waited = 0; until && !existsSync(until) && waited < 60_000; waited += 5) await sleep(5);
  }
  return out;
}
