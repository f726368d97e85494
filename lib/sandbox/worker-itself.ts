/**
 * Which processes of a worker's cgroup are "the worker itself" (what ran
 * before any user code: sandbox-worker.ts), and so which of a later listing
 * are strays a step left behind.
 *
 * Owns: the keep-set and the comparison of listings. A listing is the bytes of
 * cgroup.procs (cgroups.ts `listingOf`). A listing byte for byte the clean one
 * (the last that named only the worker itself) names the same pids, so it has
 * no strays, and is not parsed — the usual case after a step. A keep-pid that
 * a listing no longer names is dropped for good: that process is gone, and a
 * later process given its number is a stray like any other. Invariant: every
 * pid of the clean listing is in the keep-set. Does not: read the cgroup or
 * kill (sandbox-worker.ts).
 */
import { pidsIn } from './cgroups';

export class WorkerItself {
  private readonly keep: Set<number>;
  /** the last listing that named only the worker itself */
  private clean: Buffer | null;

  /** `listing`: the cgroup's processes when the worker reported ready */
  constructor(listing: Buffer) {
    this.keep = new Set(pidsIn(listing));
    this.clean = Buffer.from(listing);
  }

  /** The pids of `listing` that are not the worker itself. */
  strays(listing: Buffer): number[] {
    if (this.clean?.equals(listing)) return [];
    const pids = pidsIn(listing);
    const listed = new Set(pids);
    for (const pid of this.keep) {
      if (listed.has(pid)) continue;
      this.keep.delete(pid);
      this.clean = null; // it may name that pid
    }
    const strays = pids.filter((pid) => !this.keep.has(pid));
    if (!strays.length) this.clean = Buffer.from(listing);
    return strays;
  }
}
