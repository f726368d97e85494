// Asking the OS about processes: whether one is alive, and every live one's command line (/proc).
// Used to sweep what dead servers left behind, and by the tests that prove nothing is left.
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
