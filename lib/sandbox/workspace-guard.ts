/**
 * What a run's code may do to its workspace, checked around each code step:
 * stay within the quota (workspace-usage.ts), and make no `.git`.
 *
 * `.git`: a repository's config and hooks are programs git runs for whoever
 * runs git there next — the user, on the host. So a `.git` the workspace has
 * when its first worker starts is bound read-only into the sandbox
 * (isolation.ts: code can neither change it nor replace it), file ops refuse
 * `.git` paths (confined-fs.ts), and a `.git` code makes fails its step and is
 * renamed `.git.refused-<hex>` (never deleted: rename moves the entry itself,
 * it follows nothing), so no git command takes it for a repository. At the
 * workspace's top this is checked after every step of every workspace; deeper
 * down in the workspaces Stagecraft makes, whose full walk is done for the
 * quota anyway. A folder the user named with `--workspace` is not walked (it
 * has no quota: it is the user's, and may be a large repository), so a `.git`
 * made in a subfolder of it is not caught — the README says so.
 *
 * The baseline outlives a crash: an execution that dies mid-step (the server
 * killed, the machine down) never renames what that step made, and the next
 * execution (resume) would take the `.git` it finds for the workspace's own —
 * bound read-only as the user's repository, never renamed. So the baseline is
 * kept in a record the host names (`baselineFile`, under the data dir, out of
 * code's reach), written before any code of the workspace runs; an execution
 * that finds one trusts it, not the folder, and renames what is new before its
 * first step (or when it closes, if it runs none).
 *
 * A workspace from before records were kept has none, and a resumed execution cannot tell a `.git` the
 * crashed one's code made from the workspace's own. In a workspace Stagecraft made nothing is its own
 * (it starts empty, file ops refuse `.git` paths: only code makes one), so there no record means an
 * empty baseline: whatever `.git` is there is renamed before the first step, which fails saying so. A
 * folder the user named keeps what it has at its top (most likely the user's own repository, which
 * renaming would take from them): there, a `.git` a crashed step of such an old execution made at the
 * top stays, as it would have before.
 *
 * The read-only bind of the workspace's own `.git` is by path: bubblewrap resolves it when the worker
 * starts, after readOnlyEntries looked. A run's own code cannot swap it in between (every worker of the
 * run that runs while it is the workspace's own has it bound, and a mount point cannot be renamed or
 * replaced from inside the sandbox: EBUSY, workspace-guard.test.ts tries), but code of another run on
 * the same folder can, when that run started before the `.git` was there (it is no mount point in its
 * sandbox): a link to `..` then bound the folder above the workspace, read-only, over it — a host folder
 * the sandbox must not see. So the worker checks, before it says it is ready, that what is at the entry
 * is the one checked (device and inode), read-only (the bind, not a link or a swapped-back folder), and
 * exits saying so otherwise (workers/*: `--bound`): its call fails, nothing of the code ran.
 *
 * Owns: the baseline (the `.git` entries that were there) and its record, the
 * poll while a step runs, and the checks after it. Does not: kill workers (it calls back)
 * or measure (workspace-usage.ts).
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { StagecraftError } from '../kernel/errors';
import { ListingMemory } from './workspace-listings';
import { disarmGit, measureWorkspace, quotaError, WORKSPACE_POLL_MS, type WorkspaceQuota, type WorkspaceQuotaError, type WorkspaceUsage } from './workspace-usage';

/** paths a GitFolderError names (code can make thousands; the rest are counted) */
const MAX_NAMED = 10;
const named = (paths: string[]) => (paths.length > MAX_NAMED ? `${paths.slice(0, MAX_NAMED).join(', ')} and ${paths.length - MAX_NAMED} more` : paths.join(', '));

/** Code made a `.git` in the run's workspace. */
export class GitFolderError extends StagecraftError {
  constructor(who: string, made: string[], renamed: string[]) {
    super(
      'workspace_git_refused',
      `${who} made ${named(made)} in the run's workspace. Code may not make a git repository there: git would run its config and hooks on the host for whoever runs git in that folder next. ` +
        `It was renamed (${named(renamed) || 'it could not be renamed'}); write the files somewhere else.`,
      { httpStatus: 422, details: { made: made.slice(0, MAX_NAMED), renamed: renamed.slice(0, MAX_NAMED), count: made.length } },
    );
  }
}

type Entry = { ino: number; dev: number } | null;

/** an entry of the workspace bound read-only over itself, and the identity of what was checked there */
export type BoundEntry = { entry: string; dev: bigint; ino: bigint };

/**
 * The poll spends at most 1/POLL_COST_RATIO of its time walking: a walk that took W ms is followed by
 * none for (POLL_COST_RATIO - 1) × W ms, then the next WORKSPACE_POLL_MS tick. A workspace code filled
 * to just under the quota (10,000 entries) cost 18% of a core for as long as a step slept in it, every
 * 250 ms; now at most 5%, and a step can overshoot the quota by what it writes in that longer gap.
 */
const POLL_COST_RATIO = 20;

/** who made a `.git` found when a run resumes: code of the execution before, which ended mid-step */
const RESUMED_WHO = 'Code of an earlier execution of this run (it ended during a step, before its workspace was checked)';
/** who made a `.git` found in a workspace Stagecraft made that has no baseline record: code of an execution from before records were kept */
const UNRECORDED_WHO = 'Code of an earlier execution of this run (from before the workspace’s own .git was recorded; only code makes one in a workspace Stagecraft made)';

/** what `baselineFile` holds: the top `.git` entry, and the deeper ones (null: not walked yet, no code has run) */
type Baseline = { top: Entry; known: string[] | null };

/** a step being watched: who it is, what to do past the quota, and the breach once seen */
type Watch = { onBreach: () => void; who: string; breach: WorkspaceQuotaError | null };

export class WorkspaceGuard {
  private known: Set<string> | null = null;
  private readonly topGit: Entry;
  /** the baseline came from an earlier execution's record: what is new since is renamed before the first step */
  private readonly isResumed: boolean;
  /** who made what is found new before the first step, when resumed */
  private readonly resumedWho: string;
  private readonly watches = new Set<Watch>();
  /** the walks' folder listings, kept while unchanged (workspace-listings.ts) */
  private readonly listings = new ListingMemory();
  /** the poll's timer (unref'd), and whether it is armed */
  private poll: NodeJS.Timeout | null = null;
  private isPollArmed = false;
  private isMeasuring = false;
  /** the poll measures again no sooner than this (performance.now()): see POLL_COST_RATIO */
  private nextMeasureAt = 0;

  /**
   * `baselineFile`: where the baseline is kept across executions of the run (absent: learnt afresh by each);
   * `isMadeWorkspace`: a workspace Stagecraft made, where no record means no `.git` of its own (see above).
   */
  constructor(
    readonly dir: string,
    private readonly quota: WorkspaceQuota | null,
    private readonly baselineFile?: string,
    isMadeWorkspace = false,
  ) {
    const read = baselineFile ? readBaseline(baselineFile) : null;
    const isUnrecordedMade = isMadeWorkspace && baselineFile !== undefined && read === null;
    const recorded: Baseline | null = isUnrecordedMade ? { top: null, known: [] } : read;
    this.isResumed = recorded !== null;
    this.resumedWho = isUnrecordedMade ? UNRECORDED_WHO : RESUMED_WHO;
    this.topGit = recorded ? recorded.top : entryOf(lstatSyncOrNull(path.join(dir, '.git')));
    if (recorded?.known) this.known = new Set(recorded.known);
    if (!recorded || isUnrecordedMade) this.record();
  }

  /**
   * Entries to bind read-only in the sandbox: the workspace's own `.git`, when it is a real folder or file
   * (never a link), with the identity the worker checks on what was bound (see above).
   */
  readOnlyEntries(): BoundEntry[] {
    // one stat, in bigints (an inode number may pass 2^53): the entry judged the workspace's own is the
    // one whose identity the worker checks (two stats let a folder swapped in between them be bound)
    let st;
    try {
      st = lstatSync(path.join(this.dir, '.git'), { bigint: true, throwIfNoEntry: false });
    } catch {
      return [];
    }
    if (!st || !(st.isDirectory() || st.isFile()) || this.isNewGit('.git', { ino: Number(st.ino), dev: Number(st.dev) })) return [];
    return [{ entry: '.git', dev: st.dev, ino: st.ino }];
  }

  /**
   * Before a step: the first time, what is there already (those `.git` entries are the workspace's own) —
   * or, resumed, what an earlier execution's code made since the record (renamed); later, nothing to wait on.
   */
  before(): Promise<void> | void {
    if (this.isPrimed) return;
    return (this.priming ??= this.prime()); // steps starting at once in this workspace share it
  }

  private isPrimed = false;
  private priming: Promise<void> | null = null;

  private async prime(): Promise<void> {
    if (!this.known) {
      this.known = new Set(this.quota ? (await measureWorkspace(this.dir, this.quota, undefined, this.listings)).gitPaths : []);
      this.record();
      this.isPrimed = true;
      return;
    }
    this.isPrimed = true;
    if (!this.isResumed) return;
    // the step that made them ended with its execution: the step that runs first now fails in its place
    const found = await this.disarmNew();
    if (found.length) throw new GitFolderError(this.resumedWho, found.map((f) => f.made), found.flatMap((f) => (f.renamed ? [f.renamed] : [])));
  }

  /** The baseline to its record (written aside and renamed in: a crash never leaves half of one). */
  private record(): void {
    if (!this.baselineFile) return;
    const baseline: Baseline = { top: this.topGit, known: this.known ? [...this.known] : null };
    try {
      mkdirSync(path.dirname(this.baselineFile), { recursive: true });
      writeFileSync(`${this.baselineFile}.tmp`, JSON.stringify(baseline));
      renameSync(`${this.baselineFile}.tmp`, this.baselineFile);
    } catch {
      // unrecorded: a later execution learns the baseline afresh, as one without a record does
    }
  }

  /** Renames every `.git` not in the baseline; what was renamed. */
  private async disarmNew(): Promise<{ made: string; renamed: string | null }[]> {
    const usage = this.quota ? await measureWorkspace(this.dir, this.quota, this.isNewGit, this.listings) : null;
    return [...(usage?.disarmed ?? []), ...(await this.disarmMissedTop(usage))];
  }

  /**
   * While a step runs: the workspace is measured every WORKSPACE_POLL_MS, and `onBreach` called once past the quota.
   * Stop it with the returned function, which gives the breach. The steps running at once in this workspace share
   * one poll (each is measured at least that often); its timer is made once and re-armed, not made and cleared
   * per step.
   */
  watch(onBreach: () => void, who: string): () => WorkspaceQuotaError | null {
    if (!this.quota) return () => null;
    const watch: Watch = { onBreach, who, breach: null };
    this.watches.add(watch);
    if (!this.isPollArmed) {
      this.isPollArmed = true;
      if (this.poll) this.poll.refresh();
      else (this.poll = setTimeout(() => this.onPoll(), WORKSPACE_POLL_MS)).unref();
    }
    return () => {
      this.watches.delete(watch);
      return watch.breach;
    };
  }

  /** The poll: measures for the steps running now (none: it stays disarmed until the next starts). */
  private onPoll(): void {
    this.isPollArmed = false;
    if (!this.watches.size) return;
    this.isPollArmed = true;
    this.poll!.refresh();
    if (this.isMeasuring || performance.now() < this.nextMeasureAt) return;
    this.isMeasuring = true;
    const started = performance.now();
    measureWorkspace(this.dir, this.quota!, undefined, this.listings)
      .then((usage) => {
        for (const watch of this.watches) {
          if (watch.breach) continue;
          watch.breach = quotaError(usage, this.quota!, watch.who);
          if (watch.breach) watch.onBreach();
        }
      })
      .catch(() => {})
      .finally(() => {
        this.isMeasuring = false;
        const ended = performance.now();
        this.nextMeasureAt = ended + (ended - started) * (POLL_COST_RATIO - 1);
      });
  }

  /** After a step: throws when the workspace has a `.git` it did not have (renamed, by the walk that finds it), or is past its quota. */
  async after(who: string): Promise<void> {
    const usage = this.quota ? await measureWorkspace(this.dir, this.quota, this.isNewGit, this.listings) : null;
    const found = [...(usage?.disarmed ?? []), ...(await this.disarmMissedTop(usage))];
    if (found.length) throw new GitFolderError(who, found.map((f) => f.made), found.flatMap((f) => (f.renamed ? [f.renamed] : [])));
    const error = usage && this.quota ? quotaError(usage, this.quota, who) : null;
    if (error) throw error;
  }

  /** When the run's sandbox closes (no code runs any more): a `.git` made since the last step is renamed too. */
  async final(): Promise<void> {
    if (this.poll) clearTimeout(this.poll);
    this.poll = null;
    this.isPollArmed = false;
    if (!this.known) return;
    await this.disarmNew();
  }

  /** A `.git` that was not there before the first step: at the top, one that is not the workspace's own entry; below, one not seen then. */
  private readonly isNewGit = (rel: string, st: Pick<Stats, 'ino' | 'dev'>): boolean => {
    // a device number may change across a reboot (a recorded one is not compared); an inode number does not
    if (rel === '.git') return !(this.topGit && st.ino === this.topGit.ino && (this.isResumed || st.dev === this.topGit.dev));
    return !this.known?.has(rel);
  };

  /**
   * The top `.git` when the walk did not look at it (no walk: a folder the user named; or it stopped at
   * the quota first), renamed when it is new: the top is checked after every step of every workspace.
   */
  private async disarmMissedTop(usage: WorkspaceUsage | null): Promise<{ made: string; renamed: string | null }[]> {
    if (usage && (!usage.isOver || usage.gitPaths.includes('.git'))) return [];
    const st = lstatSyncOrNull(path.join(this.dir, '.git'));
    if (!st || !this.isNewGit('.git', st)) return [];
    return [{ made: '.git', renamed: await disarmGit(this.dir, '.git') }];
  }
}

/**
 * A plain synchronous lstat that makes no error for a missing entry: it runs after every code step,
 * where `fs/promises` lstat cost ~0.35 ms of CPU for the ENOENT it builds (its stack, through the
 * source-map hooks of a dev process) against a few µs.
 */
function lstatSyncOrNull(p: string) {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** A baseline record as written by `record`; null when there is none (or it is not one: learnt afresh). */
function readBaseline(file: string): Baseline | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const b = raw as Baseline;
  const isEntry = (e: unknown) => e === null || (typeof e === 'object' && typeof (e as { ino?: unknown }).ino === 'number' && typeof (e as { dev?: unknown }).dev === 'number');
  const isKnown = b?.known === null || (Array.isArray(b?.known) && b.known.every((k) => typeof k === 'string'));
  return b && typeof b === 'object' && isEntry(b.top) && isKnown ? { top: b.top, known: b.known } : null;
}

function entryOf(st: { ino: number; dev: number } | null): Entry {
  return st ? { ino: st.ino, dev: st.dev } : null;
}
