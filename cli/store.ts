/** The store the CLI uses: the same as the app's (DATABASE_URL, else the embedded one). */
import { hostFor, processDriver, type Host } from '../lib/server/host';
import { cgroupStatus } from '../lib/sandbox/cgroups';
import { noIsolationWarning } from '../lib/sandbox/isolation';
import { COMMAND_SHARED_BUFFERS, openStore, type OpenedStore } from '../lib/store';
import { sweepWorkspacesIfDue } from '../lib/server/runs/sweep-workspaces';
import { flushTraces } from '../lib/server/runs/trace-run';
import { baselineWasmOnly } from './wasm-tier';
import type { StoreUnavailableError } from '../lib/kernel/errors';
import { appHolding, lockedByApp, notThroughApp } from './app-holder';
import type { AppClient } from './through-app';
import type { Io } from './main';

/**
 * The store as the CLI opens it. A command may start opening it early (`run`: while it loads and
 * compiles the skill) and hand the promise to `withHost` as `opening`, which then owns it.
 */
export function openCliStore(refused?: NotThroughApp): Promise<OpenedStore> {
  // held by the app: said so (app-holder.ts), for a command that cannot go through it (and why, when it says)
  return openOwnStore().catch((e: unknown) => {
    const app = appHolding(e);
    if (!app) throw e;
    throw refused ? notThroughApp(e as StoreUnavailableError, app, refused.command, refused.why) : lockedByApp(e as StoreUnavailableError, app);
  });
}

/** a command that cannot go through the app as asked: which (`resume`, `pull`, …), and why */
export type NotThroughApp = { command: string; why: string };

function openOwnStore(): Promise<OpenedStore> {
  if (!process.env.DATABASE_URL) baselineWasmOnly();
  return openStore({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.STAGECRAFT_DATA_DIR,
    // a command opens the store for one run or one answer: a small buffer cache starts sooner
    sharedBuffers: COMMAND_SHARED_BUFFERS,
    // on stderr, so that --json output stays parseable
    onProgress: (message) => process.stderr.write(`stagecraft: ${message}…\n`),
  });
}

/**
 * `runsCode`: the command may run code steps — the isolation is settled first (STAGECRAFT_SANDBOX=required
 * without bubblewrap stops here), running without a sandbox or without cgroup caps is said once, on stderr, and afterwards the
 * workspaces of runs finished longer ago than STAGECRAFT_WORKSPACE_RETENTION are removed (at most once an hour:
 * sweep-workspaces.ts).
 */
export async function withHost<T>(
  fn: (host: Host & { store: OpenedStore }) => Promise<T>,
  opts: { runsCode?: boolean; opening?: Promise<OpenedStore>; notThroughApp?: NotThroughApp } = {},
): Promise<T> {
  const store = await (opts.opening ?? openCliStore(opts.notThroughApp));
  try {
    const host = { ...hostFor({ store, skills: store.skills, env: process.env, cwd: process.cwd(), driver: processDriver('cli') }), store };
    if (opts.runsCode) {
      const warning = noIsolationWarning(host.isolation(), cgroupStatus());
      if (warning) process.stderr.write(`stagecraft: ${warning}\n`);
    }
    const result = await fn(host);
    if (opts.runsCode) await sweepWorkspacesIfDue(host).catch(() => {});
    return result;
  } finally {
    // a short command's runs are sent before it exits (nothing to wait for when export is off)
    await flushTraces();
    await store.close();
  }
}


/**
 * The store as the CLI opens it, or — when the embedded store is held by the app — the app's URL
 * and the `store_locked` error that said so (as it came: `lockedByApp` words it for a command that
 * then cannot go through the app).
 */
export async function openOwnOrApp(): Promise<{ store: OpenedStore } | { appUrl: string; locked: StoreUnavailableError }> {
  try {
    return { store: await openOwnStore() };
  } catch (e) {
    const appUrl = appHolding(e);
    if (!appUrl) throw e;
    return { appUrl, locked: e as StoreUnavailableError };
  }
}

/**
 * `withHost`, or — when the embedded store is held by the app (`npm start` in another terminal) —
 * `viaApp` with a client of the app's HTTP API (through-app.ts), said once on stderr. A lock held
 * by any other process, and an app that does not answer, are `store_locked` as before; so is a command
 * asked for what the app cannot do (`notThroughApp`: which command, and why), saying why.
 */
export async function withHostOrApp<T>(
  io: Io,
  direct: (host: Host & { store: OpenedStore }) => Promise<T>,
  viaApp: (app: AppClient) => Promise<T>,
  opts: { runsCode?: boolean; notThroughApp?: NotThroughApp | null } = {},
): Promise<T> {
  let store: OpenedStore;
  try {
    store = await openOwnStore();
  } catch (e) {
    const url = appHolding(e);
    if (!url) throw e;
    // asked for what the app cannot do: store_locked, saying why
    if (opts.notThroughApp) throw notThroughApp(e as StoreUnavailableError, url, opts.notThroughApp.command, opts.notThroughApp.why);
    const app = await (await import('./through-app')).reachApp(url, (why) => lockedByApp(e as StoreUnavailableError, url, why));
    io.err(`(through the app at ${url}: it holds the embedded store)`);
    return viaApp(app);
  }
  return withHost(direct, { runsCode: opts.runsCode, opening: Promise.resolve(store) });
}
