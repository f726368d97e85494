/**
 * The isolation boundary around each code worker: bubblewrap (`bwrap`).
 *
 * Why bubblewrap: it is one small setuid-free binary in Debian (and most
 * distributions), needs no daemon and no config file, and builds exactly the
 * namespaces asked for on the command line — which is all a warm worker needs.
 * nsjail would add seccomp policies and cgroup limits, but is not packaged in
 * Debian stable and wants a config of its own; the seccomp filter
 * (seccomp.ts) and the cgroups (cgroups.ts) are ours instead.
 *
 * Each worker gets its own mount, pid, network, ipc, uts and user namespaces
 * (no network at all: only a private loopback), an empty environment (bwrap
 * itself is started with none, and clears its own), a read-only view of the
 * system runtime (/usr and the /bin, /lib links), of the worker scripts and of
 * the bundle version it runs, a writable working folder (the run's) whose
 * `.git`, when it has one, is read-only, a private /tmp and /dev/shm that are
 * small sized tmpfs (RAM: their pages count against the worker's memory
 * cgroup too), a read-only /dev, and the seccomp filter. `--die-with-parent`
 * and the pid namespace take every process it started with it. The memory
 * limit is the worker's own (runtime.ts) and its cgroup's (cgroups.ts).
 *
 * Owns: the mode (`STAGECRAFT_SANDBOX=off|auto|required`, default auto), the
 * probe that says whether bubblewrap works here (its verdict kept in the data
 * dir between processes: probe-cache.ts), and the bwrap command line.
 * Does not: spawn workers (worker.ts) or pick interpreters (runtime.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { SettingsError, StagecraftError } from '../kernel/errors';
import type { CgroupStatus } from './cgroups';
import { seccompFilter } from './seccomp';
import { cacheVerdict, hasCachedVerdict, probeKey } from './probe-cache';

export const SANDBOX_MODES = ['off', 'auto', 'required'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** `seccomp`: the filter workers run under (null where this architecture or kernel has none; `seccompMissing` says why) */
export type Isolation = { kind: 'bwrap'; bwrap: string; seccomp: Buffer | null; seccompMissing?: string } | { kind: 'none'; reason: string };

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
    throw new SettingsError(`STAGECRAFT_SANDBOX=${JSON.stringify(raw)}: use off, auto (the default: isolate when bubblewrap works here) or required.`);
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

/** default size of a sandbox's /tmp (STAGECRAFT_SANDBOX_TMP_SIZE) */
export const DEFAULT_TMP_BYTES = 64 * 1024 * 1024;
/** size of a sandbox's /dev/shm: POSIX semaphores and shared memory (python's multiprocessing) need a little */
export const DEV_SHM_BYTES = 16 * 1024 * 1024;

export type BwrapMounts = {
  /** bound read-only at the same path (worker scripts, the bundle version, tsx) */
  readOnly: string[];
  /** bound writable at the same path */
  workDir: string | null;
  /** the worker's current folder (default: workDir, else /tmp) */
  cwd?: string;
  /** the worker's environment (nothing else reaches it) */
  env: Record<string, string>;
  /** entries of workDir bound read-only over themselves (its `.git`; the worker checks what was bound: workspace-guard.ts) */
  readOnlyInWork?: string[];
  /** size of /tmp in bytes (default DEFAULT_TMP_BYTES) */
  tmpBytes?: number;
  /** the descriptor bwrap reads the seccomp filter from, when there is one */
  seccompFd?: number;
};

/** The bwrap command line for a worker: everything before `--` and the worker's own command. */
export function bwrapArgs(m: BwrapMounts): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'stagecraft-sandbox', '--clearenv'];
  for (const [k, v] of Object.entries(m.env)) args.push('--setenv', k, v);
  args.push(...systemArgs(), '--proc', '/proc', '--dev', '/dev', '--size', String(DEV_SHM_BYTES), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  args.push('--size', String(m.tmpBytes ?? DEFAULT_TMP_BYTES), '--tmpfs', '/tmp');
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
    // after the writable bind: the entry is then a read-only mount inside it (code can neither change nor replace it)
    for (const entry of m.readOnlyInWork ?? []) args.push('--ro-bind', path.join(real, entry), path.join(real, entry));
  }
  if (m.seccompFd !== undefined) args.push('--seccomp', String(m.seccompFd));
  args.push('--chdir', m.cwd ? realpathSync(m.cwd) : m.workDir ? realpathSync(m.workDir) : '/tmp');
  return args;
}

type Probe = { bwrap: string | null; reason: string; seccomp: Buffer | null; seccompMissing?: string };
let probed: Probe | null = null;

/** Where `isolationFor` may keep the probe's verdict (probe-cache.ts): a process's data dir. */
export type ProbeOptions = { cacheDir?: string };

/**
 * Whether bubblewrap at `bwrap` can build a sandbox on this machine (allowed to make namespaces),
 * and load our seccomp filter. With `cacheDir`, a verdict kept there for this very binary, kernel
 * and filter answers without running bwrap, and a new full verdict is kept there.
 */
export function probeBubblewrap(bwrap: string, opts: ProbeOptions = {}): Probe {
  const filter = seccompFilter();
  const key = opts.cacheDir ? probeKey(bwrap, filter) : null;
  if (key && filter && hasCachedVerdict(opts.cacheDir!, key)) return { bwrap, reason: '', seccomp: filter };
  const attempt = (withFilter: Buffer | null) =>
    spawnSync(bwrap, [...bwrapArgs({ readOnly: [], workDir: null, env: { PATH: '/usr/bin:/bin' }, seccompFd: withFilter ? 0 : undefined }), '--', 'true'], {
      env: {} as NodeJS.ProcessEnv,
      timeout: 10_000,
      encoding: 'utf8',
      input: withFilter ?? undefined,
    });
  const why = (r: ReturnType<typeof attempt>) => (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
  const withFilter = filter ? attempt(filter) : null;
  if (withFilter?.status === 0) {
    if (key) cacheVerdict(opts.cacheDir!, key);
    return { bwrap, reason: '', seccomp: filter };
  }
  const plain = attempt(null);
  if (plain.status !== 0) return { bwrap: null, reason: `bubblewrap cannot create namespaces here (${why(plain)})`, seccomp: null };
  const seccompMissing = withFilter ? `the kernel refused the filter (${why(withFilter)})` : `no filter for the ${process.arch} architecture`;
  return { bwrap, reason: '', seccomp: null, seccompMissing };
}

/** The probe of this process (once): the first bubblewrap found, or why there is none. */
function probe(opts: ProbeOptions): Probe {
  if (probed) return probed;
  const bwrap = BWRAP_PATHS.find((p) => existsSync(p));
  probed = bwrap ? probeBubblewrap(bwrap, opts) : { bwrap: null, reason: 'bubblewrap (bwrap) is not installed', seccomp: null };
  return probed;
}

/**
 * The isolation code workers get under this mode; `required` without a working bubblewrap throws.
 * `cacheDir` (the data dir): where the probe's verdict is kept between processes (probe-cache.ts).
 */
export function isolationFor(mode: SandboxMode, opts: ProbeOptions = {}): Isolation {
  if (mode === 'off') return { kind: 'none', reason: 'STAGECRAFT_SANDBOX=off' };
  const p = probe(opts);
  if (p.bwrap) return { kind: 'bwrap', bwrap: p.bwrap, seccomp: p.seccomp, ...(p.seccompMissing ? { seccompMissing: p.seccompMissing } : {}) };
  if (mode === 'required') throw new SandboxUnavailableError(p.reason);
  return { kind: 'none', reason: p.reason };
}

/**
 * What a server or CLI says once at start when code steps run without isolation, or without the
 * cgroups that cap a worker's tree. `cgroups`: where they can be made here (cgroups.ts cgroupStatus,
 * what GET /api/health reports as `sandbox.cgroups`); left out, nothing is said of them.
 */
export function noIsolationWarning(iso: Isolation, cgroups?: Pick<CgroupStatus, 'pids' | 'memory' | 'reason'>): string | null {
  const said = [isolationWarning(iso), cgroups ? noCgroupsWarning(cgroups) : null].filter(Boolean);
  return said.length ? said.join(' ') : null;
}

/**
 * Why a server must not listen on `host` (beyond loopback: the caller's to judge) with code steps
 * isolated as `iso`: run without a sandbox, anyone who reaches it runs code with its rights; null when
 * they are isolated. Said by npm start (scripts/start.mjs) and by the server's own start check.
 */
export function unsandboxedListenProblem(host: string, iso: Isolation): string | null {
  if (iso.kind !== 'none') return null;
  return `refusing to listen on ${host}: ${isolationWarning(iso)} Beyond this machine the app needs the sandbox; listen on 127.0.0.1 (unset STAGECRAFT_HOST), or install bubblewrap.`;
}

function isolationWarning(iso: Isolation): string | null {
  if (iso.kind === 'bwrap') {
    return iso.seccompMissing ? `code steps run in bubblewrap WITHOUT the seccomp filter (${iso.seccompMissing}): ptrace, bpf, mount and new user namespaces are not denied to them.` : null;
  }
  return (
    `code steps run WITHOUT a sandbox (${iso.reason}): they get a clean environment, a timeout and a memory limit, ` +
    `but can read and write what this process can, and reach the network. Install bubblewrap to isolate them (apt-get install bubblewrap), ` +
    `or set STAGECRAFT_SANDBOX=required to refuse to run them unisolated.`
  );
}

function noCgroupsWarning(cgroups: Pick<CgroupStatus, 'pids' | 'memory' | 'reason'>): string | null {
  if (!cgroups.reason) return null;
  const lost: string[] = [];
  if (!cgroups.pids) lost.push('the processes and threads a code worker forks are not capped');
  if (!cgroups.memory) lost.push("its memory limit holds per process only (rlimit), not for its tree or its /tmp");
  return `Code workers get no cgroup caps here (${cgroups.reason}): ${lost.join('; ')}. GET /api/health says so too (sandbox.cgroups).`;
}
