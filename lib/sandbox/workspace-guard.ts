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
 * Owns: the baseline (the `.git` entries that were there), the poll while a
 * step runs, and the checks after it. Does not: kill workers (it calls back)
 * or measure (workspace-usage.ts).
 */
import { lstatSync, type Stats } from 'node:fs';
import path from 'node:path';
import { StagecraftError } from '../kernel/errors';
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

/** a step being watched: who it is, what to do past the quota, and the breach once seen */
type Watch = { onBreach: () => void; who: string; breach: WorkspaceQuotaError | null };

export class WorkspaceGuard {
  private known: Set<string> | null = null;
  private readonly topGit: Entry;
  private readonly watches = new Set<Watch>();
  /** the poll's timer (unref'd), and whether it is armed */
  private poll: NodeJS.Timeout | null = null;
  private isPollArmed = false;
  private isMeasuring = false;

  constructor(
    readonly dir: string,
    private readonly quota: WorkspaceQuota | null,
  ) {
    this.topGit = entryOf(lstatSyncOrNull(path.join(dir, '.git')));
  }

  /** Entries to bind read-only in the sandbox: the workspace's own `.git`, when it is a real folder or file (never a link). */
  readOnlyEntries(): string[] {
    const st = lstatSyncOrNull(path.join(this.dir, '.git'));
    return st && (st.isDirectory() || st.isFile()) ? ['.git'] : [];
  }

  /** Before a step: the first time, what is there already (those `.git` entries are the workspace's own); later, nothing to wait on. */
  before(): Promise<void> | void {
    if (this.known) return;
    return this.learnKnown();
  }

  private async learnKnown(): Promise<void> {
    this.known = new Set(this.quota ? (await measureWorkspace(this.dir, this.quota)).gitPaths : []);
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
    if (this.isMeasuring) return;
    this.isMeasuring = true;
    measureWorkspace(this.dir, this.quota!)
      .then((usage) => {
        for (const watch of this.watches) {
          if (watch.breach) continue;
          watch.breach = quotaError(usage, this.quota!, watch.who);
          if (watch.breach) watch.onBreach();
        }
      })
      .catch(() => {})
      .finally(() => (this.isMeasuring = false));
  }

  /** After a step: throws when the workspace has a `.git` it did not have (renamed, by the walk that finds it), or is past its quota. */
  async after(who: string): Promise<void> {
    const usage = this.quota ? await measureWorkspace(this.dir, this.quota, this.isNewGit) : null;
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
    const usage = this.quota ? await measureWorkspace(this.dir, this.quota, this.isNewGit) : null;
    await this.disarmMissedTop(usage);
  }

  /** A `.git` that was not there before the first step: at the top, one that is not the workspace's own entry; below, one not seen then. */
  private readonly isNewGit = (rel: string, st: Stats): boolean => {
    if (rel === '.git') return !(this.topGit && st.ino === this.topGit.ino && st.dev === this.topGit.dev);
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

function entryOf(st: { ino: number; dev: number } | null): Entry {
  return st ? { ino: st.ino, dev: st.dev } : null;
}
