/**
 * Killing what unsandboxed workers of a sandbox left running: every process whose environment holds
 * the sandbox's HOME. Owns the scan-and-kill loop and its bound; does not find processes (processes.ts)
 * or signal them (cgroups.ts `killPids`). A process stays listed a moment after its SIGKILL while it
 * exits, so only pids not signalled before count as found: the loop ends at the first scan that finds
 * none, instead of re-scanning /proc back to back on the server's event loop until its bound.
 */
import { killPids } from './cgroups';
import { processesWithEnv } from './processes';

/** how many scans the kill of what unsandboxed workers left takes at most (each kills what forked meanwhile) */
export const LEFT_KILL_ROUNDS = 20;

/** how the loop scans and kills: /proc and SIGKILL, unless a test says otherwise */
export type LeftKillPorts = { scan: (entry: string) => number[]; kill: (pids: number[]) => number };
const OS_PORTS: LeftKillPorts = { scan: processesWithEnv, kill: killPids };

/**
 * Kills every process an unsandboxed worker of this sandbox started that is still running: one that
 * left the worker's tree (double-forked, `setsid`, its parent gone: re-parented outside, where
 * neither the worker's process group nor its descendants reach it, and no cgroup lists it when none
 * could be made) still carries the HOME it was given, the sandbox's own folder. Under bubblewrap
 * there is nothing to do: its pid namespace ends with its worker.
 */
export function killLeftBy(home: string, ports: LeftKillPorts = OS_PORTS): void {
  const killed = new Set<number>();
  for (let round = 0; round < LEFT_KILL_ROUNDS; round++) {
    const found = ports.scan(`HOME=${home}`).filter((pid) => !killed.has(pid));
    if (found.length === 0) return;
    for (const pid of found) killed.add(pid);
    if (ports.kill(found) === 0) return;
  }
}
