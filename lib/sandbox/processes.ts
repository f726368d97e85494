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
  const children = new Map<number, number[]>();
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
    if (state === 'Z') continue;
    const list = children.get(Number(ppid)) ?? [];
    list.push(Number(name));
    children.set(Number(ppid), list);
  }
  const out: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop()!;
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
