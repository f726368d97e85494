/**
 * `stagecraft events RUN --follow`: the run's log as `events` prints it (`--json`: one event view a line,
 * JSON Lines, where `events --json` prints one object), then each event as it is committed, until the
 * run ends; the exit is `run`'s for that end (0 completed — blocked too, a completed outcome — 1 failed
 * or aborted). For CI after `run --queue`: one command to wait on.
 *
 * - On Postgres: the store's own stream (stream-run-events.ts, polled every FOLLOW_POLL_MS: one
 *   indexed read past the last seq printed), whoever drives the run (a worker, the app, another CLI).
 *   A queued run is waited for: a worker may take it at any time. Every DRIVER_CHECK_MS it is checked
 *   whether anything drives the run (watchDriver): a running run whose claim no session holds, twice
 *   in a row, or a queued run while no worker was seen in the last minute, is said once on stderr, and
 *   the command goes on waiting (another worker takes a lost worker's run up once its lease ends).
 * - Beside the app that holds the embedded store: the app's run, asked as `run DIR` follows one there
 *   (through-app.ts followRun), the log past the last seq printed read at each answer; a run the app
 *   left undriven ends it with `run_left_by_app`, as it ends `run`.
 * - On the embedded store this command holds: nothing else can drive a run while it follows, so a run
 *   still running or queued is printed as it is, said on stderr (with how to take it up), exit 1.
 *
 * Ctrl-C (or SIGTERM) stops following and leaves the run alone: it only ever reads. So does stdout's
 * reader going away (`| head -3`), quietly, exit 0 (reader-gone.ts).
 */
import { RunNotFoundError } from '../lib/kernel/errors';
import { streamRunEvents } from '../lib/server/runs/stream-run-events';
import { runStatusOf } from '../lib/server/runs/run-status';
import { shellWord } from '../lib/kernel/shell-word';
import type { Host } from '../lib/server/host';
import type { OpenedStore } from '../lib/store';
import type { RunEvent } from '../lib/kernel/ports';
import { withHostOrApp } from './store';
import type { AppClient } from './through-app';
import { bundleRootOf, printEvent } from './print';
import { DRIVER_CHECK_MS, undrivenOnPostgres, undrivenWords } from './runs';
import { undrivenLook } from '../lib/server/runs/run-driver';
import type { Io } from './main';
import { onStop } from './stop-words';
import { onReaderGone } from './reader-gone';

/** how often the store is asked for what was committed past the last event printed */
export const FOLLOW_POLL_MS = 250;
// how often a run followed on Postgres is checked for a driver (two reads: its status, and pg_locks or the
// workers seen): DRIVER_CHECK_MS, runs.ts's second look too

/** an event as the log holds it (the store's, or the app's answer of it) */
type LoggedEvent = Omit<RunEvent, 'runId'>;

/** how the command ends: the run's end, or a stop (Ctrl-C, SIGTERM) with the exit code of that signal */
type Followed = { status: string } | { stoppedBy: number };

export async function followEvents(runId: string, opts: { json: boolean }, io: Io): Promise<number> {
  const print = await printerOf(opts.json, io);
  const followed = await withHostOrApp<Followed>(
    io,
    (host) => followOnStore(host, runId, print, io),
    (app) => followInApp(app, runId, print, io),
  );
  if ('stoppedBy' in followed) return followed.stoppedBy;
  return followed.status === 'completed' ? 0 : 1;
}

/** each event as `events` prints it, or (--json) as its kind's view, one a line */
async function printerOf(json: boolean, io: Io): Promise<(e: LoggedEvent) => void> {
  if (json) {
    // the views are zod's schemas: loaded for --json alone, as `events --json` loads them
    const { RunEventView } = await import('../lib/views/events');
    return (e) => io.out(JSON.stringify(RunEventView.parse(e)));
  }
  const roots: string[] = [];
  return (e) => {
    roots.push(...bundleRootOf(e));
    printEvent(e, roots, io);
  };
}

async function followOnStore(host: Host & { store: OpenedStore }, runId: string, print: (e: LoggedEvent) => void, io: Io): Promise<Followed> {
  const status = await runStatusOf(host.store, runId);
  if (!status) throw new RunNotFoundError(runId);
  if (host.store.backend === 'pglite' && (status === 'running' || status === 'queued')) {
    // this command holds the embedded store: no process can drive the run while it waits, so it would wait forever
    for (const { runId: _r, ...e } of await host.store.readEvents(runId)) print(e);
    io.err(`${undrivenWords([runId], status)} Following it stops here (exit 1): nothing can drive it while this command holds the store.`);
    return { status: 'failed' };
  }
  const stop = new AbortController();
  let stoppedBy = 0;
  const unstop = onStop((_signal, exitCode) => {
    stoppedBy = exitCode;
    io.err(`stagecraft: stopped following run ${runId}; it goes on as it was (to abort it: stagecraft abort ${shellWord(runId)})`);
    stop.abort();
  });
  // stdout's reader gone (`| head -3`): nobody reads what follows; stop at once, quietly, exit 0 (reader-gone.ts)
  const ungone = onReaderGone(() => stop.abort());
  const unwatch = watchDriver(host, runId, io);
  try {
    for await (const m of await streamRunEvents(host, runId, { pollMs: FOLLOW_POLL_MS, signal: stop.signal })) {
      if (m.event === 'end') return { status: m.data.status };
      // the stream's view of a store event (list-run-events.ts eventView): its data is the event's own JSON
      print(m.data as LoggedEvent);
    }
    return { stoppedBy };
  } finally {
    unwatch();
    ungone();
    unstop();
  }
}

/**
 * On Postgres, while the run is followed: said once on stderr when nothing drives it — recorded as
 * running while no session holds its claim (two checks in a row: a worker takes its claim a moment
 * after its job), or queued while no worker was seen in the last minute — and again only after
 * something drove it meanwhile. A check the store cannot answer is let go: the stream says the rest.
 * Returns the function that stops watching.
 */
function watchDriver(host: Host & { store: OpenedStore }, runId: string, io: Io): () => void {
  if (host.store.backend !== 'postgres' || !host.store.sql) return () => {};
  let said: 'running' | 'queued' | null = null;
  let unclaimed = 0;
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  const check = async () => {
    const look = await undrivenLook(host.store, runId);
    unclaimed = look === 'unclaimed' ? unclaimed + 1 : 0;
    const undriven = unclaimed >= 2 ? 'running' : look === 'no-worker' ? 'queued' : null;
    if (undriven && undriven !== said && !isStopped) io.err(`stagecraft: ${undrivenOnPostgres(runId, undriven)} Still following.`);
    // a first unclaimed check keeps what was said: only a driven check forgets it
    if (undriven || unclaimed === 0) said = undriven;
  };
  const next = () => {
    timer = setTimeout(() => void check().catch(() => {}).finally(() => isStopped || next()), DRIVER_CHECK_MS);
  };
  void check()
    .catch(() => {})
    .finally(() => isStopped || next());
  return () => {
    isStopped = true;
    clearTimeout(timer);
  };
}

export async function followInApp(app: AppClient, runId: string, print: (e: LoggedEvent) => void, io: Io): Promise<Followed> {
  const { followRun } = await import('./through-app');
  let after = 0;
  // stdout's reader gone (`events RUN --follow | head -3`): nobody reads what follows; the run is the
  // app's. Only here: run, fork and resume through the app finish following whoever reads (reader-gone.ts)
  const ungone = onReaderGone(() => process.exit(0));
  try {
    // each answer about the run, then the log past what was printed: the answer that says it ended is followed by its last events
    const { run } = await followRun(app, runId, io, async () => {
      for (const e of await app.events(runId, after)) {
        print(e);
        after = e.seq;
      }
    });
    return { status: run.status };
  } finally {
    ungone();
  }
}
