/**
 * The isolation boundary around each code worker: bubblewrap (`bwrap`).
 *
 * Why bubblewrap: it is one small setuid-free binary in Debian (and most
 * distributions), needs no daemon and no config file, and builds exactly the
 * namespaces asked for on the command line — which is all a warm worker needs.
 * nsjail would add seccomp policies and cgroup limits, but is not packaged in
 * Debian stable and wants a config of its own.
 *
 * Each worker gets its own mount, pid, network, ipc, uts and user namespaces
 * (no network at all: only a private loopback), an empty environment (bwrap
 * itself is started with none, and clears its own), a read-only view of the
 * system runtime (/usr and the /bin, /lib links), of the worker scripts and of
 * the bundle version it runs, a writable working folder (the run's) and a
 * private /tmp. `--die-with-parent` and the pid namespace take every process it
 * started with it. The memory limit is the worker's own (runtime.ts).
 *
 * Owns: the mode (`STAGECRAFT_SANDBOX=off|auto|required`, default auto), the
 * probe that says whether bubblewrap works here, and the bwrap command line.
 * Does not: spawn workers (worker.ts) or pick interpreters (runtime.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { StagecraftError, UsageError } from '../kernel/errors';

export const SANDBOX_MODES = ['off', 'auto', 'required'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export type Isolation = { kind: 'bwrap'; bwrap: string } | { kind: 'none'; reason: string };

/** STAGECRAFT_SANDBOX=required, and no usable bubblewrap here. */
export class SandboxUnavailableError extends StagecraftError {
  constructor(reason: string) {
    super(
      'sandbox_unavailable',
      `STAGECRAFT_SANDBOX=required, but code steps cannot be isolated here: ${reason}. Install bubblewrap (apt-get install bubblewrap) where user namespaces are allowed, or set STAGECRAFT_SANDBOX=auto to run code steps without isolation.`,
      { httpStatus: 503, details: { reason } },
    );
  }
}

export function sandboxMode(env: Record<string, string | undefined>): SandboxMode {
  const raw = env.STAGECRAFT_SANDBOX || 'auto';
  if (!(SANDBOX_MODES as readonly string[]).includes(raw)) {
    throw new UsageError(`STAGECRAFT_SANDBOX=${JSON.stringify(raw)}: use off, auto (the default: isolate when bubblewrap works here) or required.`);
  }
  return raw as SandboxMode;
}

const BWRAP_PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
/** the parts of the system a worker's interpreter needs, read-only */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** System folders as bwrap arguments: a real folder is bound read-only, a merged-/usr link is recreated as a link. */
function systemArgs(): string[] {
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
    else out.push('--ro-bind', dir, dir);
  }
  // an interpreter installed outside /usr (nvm, a tarball in /opt): its installation, read-only
  const nodeRoot = path.dirname(path.dirname(realpathSync(process.execPath)));
  if (!SYSTEM_DIRS.some((d) => nodeRoot === d || nodeRoot.startsWith(`${d}/`))) out.push('--ro-bind', nodeRoot, nodeRoot);
  return out;
}

export type BwrapMounts = {
  /** bound read-only at the same path (worker scripts, the bundle version, tsx) */
  readOnly: string[];
  /** bound writable at the same path */
  workDir: string | null;
  /** the worker's current folder (default: workDir, else /tmp) */
  cwd?: string;
  /** the worker's environment (nothing else reaches it) */
  env: Record<string, string>;
};

/** The bwrap command line for a worker: everything before `--` and the worker's own command. */
export function bwrapArgs(m: BwrapMounts): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'stagecraft-sandbox', '--clearenv'];
  for (const [k, v] of Object.entries(m.env)) args.push('--setenv', k, v);
  args.push(...systemArgs(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  const seen = new Set<string>();
  for (const p of m.readOnly) {
    const real = realpathSync(p);
    if (seen.has(real)) continue;
    seen.add(real);
    args.push('--ro-bind', real, real);
    if (real !== p) args.push('--symlink', real, p);
  }
  if (m.workDir) {
    const real = realpathSync(m.workDir);
    args.push('--bind', real, real);
  }
  args.push('--chdir', m.cwd ? realpathSync(m.cwd) : m.workDir ? realpathSync(m.workDir) : '/tmp');
  return args;
}

let probed: { bwrap: string | null; reason: string } | null = null;

/** Whether bubblewrap can build a sandbox on this machine: found, and allowed to make namespaces. Probed once. */
function probe(): { bwrap: string | null; reason: string } {
  if (probed) return probed;
  const bwrap = BWRAP_PATHS.find((p) => existsSync(p));
  if (!bwrap) return (probed = { bwrap: null, reason: 'bubblewrap (bwrap) is not installed' });
  const r = spawnSync(bwrap, [...bwrapArgs({ readOnly: [], workDir: null, env: { PATH: '/usr/bin:/bin' } }), '--', 'true'], { env: {} as NodeJS.ProcessEnv, timeout: 10_000, encoding: 'utf8' });
  if (r.status === 0) return (probed = { bwrap, reason: '' });
  const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
  return (probed = { bwrap: null, reason: `bubblewrap cannot create namespaces here (${why})` });
}

/** The isolation code workers get under this mode; `required` without a working bubblewrap throws. */
export function isolationFor(mode: SandboxMode): Isolation {
  if (mode === 'off') return { kind: 'none', reason: 'STAGECRAFT_SANDBOX=off' };
  const p = probe();
  if (p.bwrap) return { kind: 'bwrap', bwrap: p.bwrap };
  if (mode === 'required') throw new SandboxUnavailableError(p.reason);
  return { kind: 'none', reason: p.reason };
}

/** What a server or CLI says once at start when code steps run without isolation. */
export function noIsolationWarning(iso: Isolation): string | null {
  if (iso.kind !== 'none') return null;
  return (
    `code steps run WITHOUT a sandbox (${iso.reason}): they get a clean environment, a timeout and a memory limit, ` +
    `but can read and write what this process can, and reach the network. Install bubblewrap to isolate them (apt-get install bubblewrap), ` +
    `or set STAGECRAFT_SANDBOX=required to refuse to run them unisolated.`
  );
}
