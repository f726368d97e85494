// Asking the OS about processes: whether one is alive, every live one's command line, and a process's
// descendants (/proc), the processes whose environment holds an entry. Used to sweep what dead servers
// left behind, to find what a step started where no cgroup lists it (sandbox-worker.ts) and what an
// unsandboxed run's workers left anywhere (sandbox.ts), and by the tests that prove nothing is left.
import { readdirSync, readFileSync } from 'node:fs';

/** Whether a process with this pid exists (one we may not signal counts as alive). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every live process's command line, arguments joined by spaces (no `ps` needed: procps may be missing). */
export function processCommandLines(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      // gone since the listing
    }
  }
  return out;
}

/** The live (not zombie) descendants of `root`, from each process's parent in /proc/<pid>/stat. */
export function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z') parents.set(Number(name), Number(ppid));
  }
  return descendantsIn(root, parents);
}

/**
 * The processes below `root` (its children, theirs, …) in a listing of each process's parent, read
 * once (the bench reads its CPU figures from the same stat reads). A listing read process by process
 * may hold a loop (a pid reused meanwhile): each process is taken once.
 */
export function descendantsIn<Pid>(root: Pid, parents: ReadonlyMap<Pid, Pid>): Pid[] {
  const children = new Map<Pid, Pid[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const seen = new Set<Pid>([root]);
  const out: Pid[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * The live processes (but this one) whose environment, as they were started, holds `entry`
 * (`HOME=/tmp/stagecraft-sandbox-…`): what an unsandboxed worker started and left, wherever it was
 * re-parented. A process that rewrote its environment before its exec is not found; one of another
 * user is not readable (and not ours to kill).
 */
export function processesWithEnv(entry: string): number[] {
  const inner = Buffer.from(`\0${entry}\0`);
  const first = inner.subarray(1);
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${name}/environ`);
    } catch {
      continue; // gone since the listing, or not ours
    }
    if (env.indexOf(inner) >= 0 || env.subarray(0, first.length).equals(first)) out.push(Number(name));
  }
  return out;
}
