/**
 * The tests that run the CLI as a user that is not root (one who may read only what others may, and
 * make no cgroup): as root, `setpriv` to `nobody`; as anyone else, as they are. `skipAsNobody`: why the
 * test cannot run so here (root without setpriv, or a checkout closed to other users), else false.
 * `cgroupPlacesAsNonRoot`: where that user's sandbox would make cgroups (a host may delegate some to
 * users), for the tests of what happens where it may make none.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, chownSync } from 'node:fs';
import path from 'node:path';

export const NOBODY = 65534;
export const isRoot = process.getuid?.() === 0;
const SETPRIV = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];

/**
 * `stagecraft …args` run to its end as a user that is not root, with `root` (the test's folder: made
 * its HOME, its data dir `root/data`) given to that user first.
 */
export function cliAsNonRoot(args: string[], root: string, opts: { env?: Record<string, string>; input?: string } = {}): SpawnSyncReturns<string> {
  if (isRoot) {
    chmodSync(root, 0o755);
    spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, root]);
    chownSync(root, NOBODY, NOBODY);
  }
  const cli = [process.execPath, path.resolve('bin/stagecraft.mjs'), ...args];
  const [cmd, ...rest] = isRoot ? [...SETPRIV, ...cli] : cli;
  return spawnSync(cmd, rest, { encoding: 'utf8', input: opts.input, env: { ...process.env, HOME: root, STAGECRAFT_DATA_DIR: path.join(root, 'data'), ...opts.env } });
}

/** `argv` run to its end as the user `cliAsNonRoot` runs as (what it may read aside: nothing is given to it here) */
export function asNonRoot(argv: string[]): SpawnSyncReturns<string> {
  const [cmd, ...rest] = isRoot ? [...SETPRIV, ...argv] : argv;
  return spawnSync(cmd, rest, { encoding: 'utf8', cwd: process.cwd() });
}

const CGROUP_PLACES = path.resolve('lib/sandbox/fixtures/cgroup-places.ts');

/**
 * The folders where the sandbox, run as the user `cliAsNonRoot` runs as, would make its workers'
 * cgroups (empty: none); null when that could not be asked (what the probe said on stderr aside).
 */
export function cgroupPlacesAsNonRoot(): string[] | null {
  const probe = [process.execPath, '--import', 'tsx', CGROUP_PLACES];
  const [cmd, ...rest] = isRoot ? [...SETPRIV, ...probe] : probe;
  const r = spawnSync(cmd, rest, { encoding: 'utf8', cwd: process.cwd() });
  try {
    return r.status === 0 ? (JSON.parse(r.stdout) as string[]) : null;
  } catch {
    return null;
  }
}

/** as root: whether `nobody` can run the CLI of this checkout (not when it was cloned under a folder only root may enter, as mktemp -d makes) */
function nobodyCanRunCli(): boolean {
  // dist/ rebuilt first, if the sources changed, by this user: nobody may not write it
  spawnSync(process.execPath, ['bin/stagecraft.mjs', '--version']);
  return spawnSync(SETPRIV[0], [...SETPRIV.slice(1), process.execPath, path.resolve('bin/stagecraft.mjs'), '--version']).status === 0;
}

export const skipAsNobody: string | false = !isRoot
  ? false
  : spawnSync('setpriv', ['--version']).status !== 0
    ? 'root without setpriv: no other user to run as'
    : !nobodyCanRunCli()
      ? `nobody cannot run this checkout's CLI (${process.cwd()} or a folder above it is closed to other users): run the test from a checkout others may read, or as a user that is not root`
      : false;
