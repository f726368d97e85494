/**
 * Removes the workspaces of runs that finished longer ago than the retention
 * period (STAGECRAFT_WORKSPACE_RETENTION, default 24h), so that what runs
 * write does not stay on disk for ever. A run that has not finished (running,
 * or interrupted and waiting to resume) keeps its workspace, whatever its age;
 * a workspace whose run is not in the store is removed once old enough.
 *
 * A folder the user named with `--workspace` is never removed, nor anything in
 * it: Stagecraft removes only its own link to it. Removal happens when no code
 * of that run runs any more (the run finished, and its sandbox killed every
 * process it had), so nothing changes the folder while it is removed.
 *
 * The app sweeps every hour; a CLI command that runs code sweeps after it, at most once an hour
 * for the data dir (a marker file's mtime says when one last did), so that a command's time does not
 * grow with the number of workspaces — except at retention 0, where every command sweeps.
 *
 * Owns: which workspaces go, and when the app and the CLI sweep. Does not: decide what a
 * run may write (lib/sandbox/workspace-usage.ts).
 */
import { execFile } from 'node:child_process';
import { lstat, readdir, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CAN_REMOVE_WITHIN, removeWithin } from '../../sandbox/remove-within';
import { gitBaselineOf, type Host } from '../host';

const FINISHED = new Set<string>(['completed', 'failed', 'aborted']);

/** the app sweeps at most this often (and at least once per retention period) */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** in the workspaces dir: its mtime is when a short command last swept (no run id starts with a dot) */
export const SWEPT_MARKER = '.swept';

/** how often to sweep: hourly, or once per retention period when shorter (a minute at least) */
const sweepInterval = (host: Host) => Math.max(60_000, Math.min(SWEEP_INTERVAL_MS, host.limits().workspaceRetentionMs || SWEEP_INTERVAL_MS));

/** Removes the workspaces past retention; their run ids. */
export async function sweepWorkspaces(host: Host, now: number = Date.now()): Promise<string[]> {
  const retentionMs = host.limits().workspaceRetentionMs;
  let names: string[];
  try {
    names = await readdir(host.workspacesDir);
  } catch {
    return []; // no run has had a workspace yet
  }
  const removed: string[] = [];
  for (const runId of names) {
    if (runId.startsWith('.')) continue; // the marker, not a workspace
    const place = path.join(host.workspacesDir, runId);
    const st = await lstat(place).catch(() => null);
    // a workspace changed within the period cannot belong to a run that finished before it
    if (!st || now - st.mtimeMs < retentionMs) continue;
    const run = await host.store.getRun(runId);
    if (run && (!FINISHED.has(run.status) || now - run.updatedAt < retentionMs)) continue;
    if (st.isSymbolicLink()) await unlink(place); // the user's folder: only our link to it goes
    else if (!(await removeTree(place))) continue; // left for the next sweep; the others still go
    await unlink(gitBaselineOf(host, runId)).catch(() => undefined);
    removed.push(runId);
  }
  return removed;
}

/**
 * Removes a workspace, whatever its code made there, never through a link code made: by descriptors
 * (remove-within.ts: each folder held open, each name removed in the folder held), in this process —
 * the app's server must not fork (spawner.ts). Node's recursive rm looks each name up again by its full
 * path, so a folder that code swaps for a link after rm found it a folder (were any of its processes
 * left) had rm list the link's target and unlink the host files there by the same names
 * (sweep-workspaces.test's race lost hundreds of a host folder's files); and it fails with ENAMETOOLONG
 * on a tree nested thousands of folders deep (code can make one: a loop of mkdir and chdir) — a failure
 * here stopped the sweep, every workspace after it kept for ever. What the descriptor walk leaves (a tree
 * too deep for it, no /proc) goes to the system's `rm -rf`, which walks by descriptors at any depth (and
 * Node's rm only where there is no `rm` to run); one code made unreadable to its owner is given back its
 * owner's access first. Whether it went or not, the sweep goes on. (regress removes its scratch
 * workspace with it too.)
 */
export async function removeTree(place: string): Promise<boolean> {
  if (CAN_REMOVE_WITHIN) {
    try {
      await removeWithin(place);
      return true;
    } catch {
      // too deep for it, or changed as it went: the system's rm below
    }
  }
  try {
    await run('rm', ['-rf', '--', place]);
    return true;
  } catch (e) {
    // no `rm` here to run (a failed one's code is its exit status, a number): Node's, by paths
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return rm(place, { recursive: true, force: true }).then(() => true, () => false);
  }
  // a folder whose owner's write, read or search code took (`chmod 000`: code runs as this user)
  // cannot be entered or emptied: the owner gets them back (chmod -R follows no link it meets in
  // the tree), and the tree goes — before, such a workspace stayed on disk for ever
  await run('chmod', ['-R', 'u+rwx', '--', place]).catch(() => undefined);
  try {
    await run('rm', ['-rf', '--', place]);
    return true;
  } catch {
    return false;
  }
}

const run = promisify(execFile);

/**
 * For a short command: sweeps unless one did within the interval, for this data dir (any process);
 * the run ids removed, or null when it was not due.
 */
export async function sweepWorkspacesIfDue(host: Host, now: number = Date.now()): Promise<string[] | null> {
  const marker = path.join(host.workspacesDir, SWEPT_MARKER);
  // retention 0 asks for a finished run's workspace to go at the next sweep: after every command, as before
  const last = host.limits().workspaceRetentionMs === 0 ? 0 : await stat(marker).then((st) => st.mtimeMs, () => 0);
  if (last <= now && now - last < sweepInterval(host)) return null;
  // marked first: commands ending together do not all sweep (no workspaces dir yet: nothing to sweep)
  await writeFile(marker, '')
    .then(() => utimes(marker, now / 1000, now / 1000))
    .catch(() => undefined);
  return sweepWorkspaces(host, now);
}

/** In a long-lived server: sweeps now, then every hour (or the retention period, when shorter); never keeps the process alive. */
export function scheduleWorkspaceSweeps(host: Host, onError: (e: unknown) => void): () => void {
  const sweep = () => void sweepWorkspaces(host).catch(onError);
  sweep();
  const every = sweepInterval(host);
  const timer = setInterval(sweep, every);
  timer.unref();
  return () => clearInterval(timer);
}
