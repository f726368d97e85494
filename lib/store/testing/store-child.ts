/**
 * A second process for the store's cross-process tests (run with
 * `node --import tsx`). Prints one JSON line per step on stdout.
 *
 *   lock DIR              take the data-dir lock of DIR, print {"ready":pid}, wait to be killed
 *   open DIR              open the embedded store in DIR; print {"ok":true} or {"ok":false,code,message}
 *   hold DIR RUN_ID       open the embedded store in DIR, create RUN_ID, complete it with a lazy
 *                         commit, print {"ready":pid}, wait to be killed
 *   claim URL RUN_ID      claim RUN_ID on the Postgres at URL, print {"claimed":bool}, wait to be killed
 *
 * Owns nothing but the choreography; assertions stay in the test files.
 */
import { acquireDataDirLock } from '../data-dir-lock';
import { openStore } from '../open-store';
import { ev, makeRun } from './fixtures';

const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
const forever = () => setInterval(() => {}, 60_000);

const [mode, a, b] = process.argv.slice(2);
try {
  if (mode === 'lock') {
    acquireDataDirLock(a);
    say({ ready: process.pid });
    forever();
  } else if (mode === 'open') {
    const store = await openStore({ dataDir: a });
    say({ ok: true });
    await store.close();
  } else if (mode === 'hold') {
    const store = await openStore({ dataDir: a });
    const run = makeRun({ id: b });
    await store.createRun(run, { events: [ev(run.id, 1)] });
    await store.commit(run.id, { events: [ev(run.id, 2, 'run_completed')], run: { status: 'completed' }, lazy: true });
    say({ ready: process.pid });
    forever();
  } else if (mode === 'claim') {
    const store = await openStore({ databaseUrl: a });
    say({ claimed: (await store.claimRun(b)) !== null });
    forever();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} catch (e) {
  const err = e as { code?: string; message?: string };
  say({ ok: false, code: err.code ?? null, message: err.message ?? String(e) });
  process.exitCode = 1;
}
