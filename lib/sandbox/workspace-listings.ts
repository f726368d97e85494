/**
 * The walk's memory of folder listings (workspace-usage.ts): a folder whose entries have not changed
 * since the last walk is not listed again, its names are taken from the last listing (each entry is
 * still lstat'ed: a file's size changes without its folder changing).
 *
 * Why: a listing costs an opendir, and Node's (20) builds a Dir that promisifies two of its methods,
 * ~20 µs of the main thread, where a stat of the folder costs ~3 µs; the walk after every code step
 * lists at least the top folder, most often unchanged since the step before.
 *
 * When a listing is proven unchanged: a folder's ctime moves whenever an entry is added, removed or
 * renamed in it (its mtime too, but code can set the mtime back; nothing but the kernel sets a ctime),
 * and its device and inode name the folder itself. A timestamp has the kernel's clock granularity
 * (a tick, at most 10 ms), so a change made in the same tick as the listing could leave the ctime as
 * it was: a listing is kept only when the folder's ctime is older than RACY_MS before the folder was
 * stat'ed (as git's "racily clean" rule): any later change stamps a ctime past it (a file system
 * stamping whole seconds, such as ext4 with small inodes, shows ctimes without nanoseconds: those
 * must be RACY_WHOLE_SECONDS_MS old). The stat comes before the listing is read, so a change made in
 * between is in the listing and moves the ctime too: the next walk lists the folder again. Only on
 * local file systems that stamp with this machine's clock (LOCAL_FS): a remote one stamps with its
 * server's, which may lag ours; elsewhere every folder is listed, as before.
 *
 * Bounded: only listings read to their end and of at most MAX_KEPT_NAMES names are kept, and each
 * walk keeps only the folders it went through (a removed folder is forgotten by the next walk).
 *
 * Owns: ListingMemory. Does not: walk (workspace-usage.ts).
 */
import { statfsSync, type BigIntStats } from 'node:fs';

/** a ctime younger than this (before its folder's stat) may not have moved with a change yet (a clock tick is at most 10 ms) */
export const RACY_MS = 50;
export const RACY_WHOLE_SECONDS_MS = 2_000;
/** statfs types whose timestamps come from this kernel's clock: ext2/3/4, xfs, btrfs, tmpfs, overlayfs, zfs, f2fs */
const LOCAL_FS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010]);
/** names of one folder kept at most */
export const MAX_KEPT_NAMES = 1_000;

type Listing = { dev: bigint; ino: bigint; ctimeNs: bigint; names: string[] };

/** One workspace's listings, as its last walk to end left them (by path relative to the top). */
export class ListingMemory {
  private last = new Map<string, Listing>();
  private isLocal: boolean | null = null;

  /** A walk of `root` begins: what it keeps replaces what is kept when it ends (walks at once: the last to end); null on a file system not known to be local. */
  begin(root: string): ListingWalk | undefined {
    if (this.isLocal === null) {
      try {
        this.isLocal = LOCAL_FS.has(statfsSync(root).type);
      } catch {
        return undefined; // asked again by the next walk
      }
    }
    return this.isLocal ? new ListingWalk(this) : undefined;
  }

  /** the listings of the folder at `rel` the last walk kept */
  kept(rel: string): Listing | undefined {
    return this.last.get(rel);
  }

  /** a walk's listings, in place of the last walk's */
  adopt(next: Map<string, Listing>): void {
    this.last = next;
  }
}

/** One walk's use of the memory (a class, not closures made per walk: tsx names each closure it makes, ~2 µs apiece). */
export class ListingWalk {
  private readonly next = new Map<string, Listing>();

  constructor(private readonly memory: ListingMemory) {}

  /** The names of the folder at `rel` (`st`: stat'ed before its listing would be read), when unchanged since they were read; null: list it. */
  names(rel: string, st: BigIntStats): string[] | null {
    const l = this.memory.kept(rel);
    if (!l || l.dev !== st.dev || l.ino !== st.ino || l.ctimeNs !== st.ctimeNs) return null;
    this.next.set(rel, l);
    return l.names;
  }

  /** A listing read to its end, after `st` was taken at `statAtMs` (Date.now() before the stat); kept when its ctime proves it. */
  keep(rel: string, st: BigIntStats, statAtMs: number, names: string[]): void {
    const racyMs = st.ctimeNs % 1_000_000_000n === 0n ? RACY_WHOLE_SECONDS_MS : RACY_MS;
    if (names.length > MAX_KEPT_NAMES || st.ctimeNs >= BigInt(statAtMs - racyMs) * 1_000_000n) return;
    this.next.set(rel, { dev: st.dev, ino: st.ino, ctimeNs: st.ctimeNs, names });
  }

  /** The walk went through every folder it keeps: they replace what was kept. */
  end(): void {
    this.memory.adopt(this.next);
  }
}
