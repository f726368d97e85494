/**
 * The app that holds the embedded store, as a CLI command that found it locked sees it: the
 * lock's holder is the app when the data dir's app.json (lib/store/app-file.ts) names the same pid.
 * `store_locked` then says so, with its first sentence and code as they were. Light: node:fs only
 * (the commands that go through the app load its client themselves: cli/through-app.ts).
 */
import { StoreUnavailableError } from '../lib/kernel/errors';
import { readApp } from '../lib/store/app-file';
import { isAlive } from '../lib/store/data-dir-lock';

/** The URL of the app holding the store a `store_locked` error is about; null when another process holds it (or none). */
export function appHolding(e: unknown): string | null {
  if (!(e instanceof StoreUnavailableError) || e.code !== 'store_locked') return null;
  const { dataDir, pid } = e.details;
  if (typeof dataDir !== 'string' || typeof pid !== 'number') return null;
  const app = readApp(dataDir);
  // an app.json of another process (an app that died, its lock since taken by a CLI) is no word on this lock
  return app && app.pid === pid && isAlive(pid) ? app.url : null;
}

/**
 * `store_locked` as it was, saying that the holder is the app at `url` and what to do;
 * `unanswered`: the app did not answer a command that would have gone through it (why).
 */
export function lockedByApp(e: StoreUnavailableError, url: string, unanswered?: string): StoreUnavailableError {
  const said = unanswered
    ? ` That process is the Stagecraft app at ${url}, and it did not answer (${unanswered}): if it is stuck, stop it and start it again.`
    : ` That process is the Stagecraft app at ${url}: use the app at ${url}, or stop it, or set STAGECRAFT_DATA_DIR or DATABASE_URL as said. ` +
      '(`stagecraft runs`, `events`, `abort`, `export`, `compare` and `versions` go through the app by themselves.) (`stagecraft run DIR`, `fork`, `replay` and `push` do too.) (`stagecraft resume RUN`, `pull`, `import` and `regress` do as well.)';
  return new StoreUnavailableError('store_locked', e.message + said, { ...e.details, appUrl: url, ...(unanswered ? { appAnswered: false } : {}) });
}

/** `store_locked` naming the app, for a command that goes through it but not as asked here (why) */
export function notThroughApp(e: StoreUnavailableError, url: string, command: string, why: string): StoreUnavailableError {
  const locked = lockedByApp(e, url);
  return new StoreUnavailableError('store_locked', `${locked.message} \`stagecraft ${command}\` cannot go through it here: ${why}`, locked.details);
}
