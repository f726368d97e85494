/**
 * How many runs the app drives at once: at most STAGECRAFT_MAX_RUNS (default
 * twice the CPUs). A run asked for when every slot is taken is recorded
 * `queued` (the API and the pages show it so) and waits its turn, first come
 * first served; when a slot frees, it is admitted — driven from its record,
 * as a resume (`run_admitted`, then `running`). Because it is recorded, a
 * restart loses none: on boot, interrupted runs and then queued ones are
 * handed to the same admission, oldest first. A run whose code worker died
 * with the sandbox's spawner (lib/sandbox/spawner.ts) was left resumable, and
 * is admitted again at once (`resumeAfterHostLoss`).
 *
 * The slots are the process's own: an in-process admission over recorded
 * runs. What is admitted next is the only thing this module decides, so a
 * shared job queue (workers on Postgres) can take its place as the source of
 * runs without changing how a run is recorded or driven.
 *
 * `run_skill` children are not admitted: they run inside their parent's slot
 * (the parent waits on them; bounded by STAGECRAFT_MAX_DESCENDANTS), so a full
 * house of parents can never wait on children that wait on them.
 *
 * Owns: the slots, the waiting line, the app's launch and boot through them.
 * Does not: record or drive runs (start-run.ts, resume-run.ts, the kernel).
 */
import type { RunOutcome } from '../../kernel/runner';
import type { Host } from '../host';
import { maxRuns } from '../limits';
import { runStatusOf } from './run-status';
import { resumeSkillRun, type ResumeResult } from './resume-run';
import { SandboxHostLostError } from '../../kernel/errors';
import { launchStoredRun, prepareStoredRun, queueStoredRun, type StoredRunRequest } from './start-run';

type Release = () => void;

export class RunAdmission {
  private active = 0;
  /** the most runs driven at once so far (for the load test and the logs) */
  peak = 0;
  private readonly line: ((release: Release) => void)[] = [];

  constructor(readonly limit: number) {}

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.line.length;
  }

  /** A slot now, or null when all are taken or runs already wait for one (none jumps the line). */
  tryAcquire(): Release | null {
    if (this.active >= this.limit || this.line.length) return null;
    return this.take();
  }

  /** A slot when one is free, in the order asked. */
  acquire(): Promise<Release> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => this.line.push(resolve));
  }

  /** Runs `drive` in a slot (waiting for one) and frees the slot when it settles. */
  async admit<T>(drive: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await drive();
    } finally {
      release();
    }
  }

  private take(): Release {
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.line.shift();
      // the slot passes straight to the next in line
      if (next) next(this.handOver());
      else this.active--;
    };
  }

  /** A slot that changes hands without being freed in between. */
  private handOver(): Release {
    this.active--;
    return this.take();
  }
}

const GLOBAL_KEY = Symbol.for('stagecraft.runAdmission');

/**
 * The process's admission. Kept on globalThis: Next bundles the start-up hook (boot) and the
 * routes separately, and both must share one set of slots.
 */
export function runAdmission(env: Record<string, string | undefined> = process.env): RunAdmission {
  const g = globalThis as { [GLOBAL_KEY]?: RunAdmission };
  return (g[GLOBAL_KEY] ??= new RunAdmission(maxRuns(env)));
}

/**
 * `POST /api/runs`: a stored run, driven now when a slot is free, else recorded `queued` and
 * driven when its turn comes. Answers once the run is recorded, either way.
 */
export async function launchAdmittedRun(host: Host, req: StoredRunRequest, admission: RunAdmission): Promise<{ runId: string; queued: boolean; done: Promise<RunOutcome> }> {
  const prepared = await prepareStoredRun(host, req);
  const release = admission.tryAcquire();
  if (release) {
    try {
      const launched = await launchStoredRun(host, prepared, req);
      const done = resumeAfterHostLoss(host, launched.runId, launched.done.finally(release), admission);
      done.catch(() => undefined);
      return { runId: launched.runId, queued: false, done };
    } catch (e) {
      release();
      throw e;
    }
  }
  const runId = await queueStoredRun(host, prepared, req);
  const done = resumeAfterHostLoss(host, runId, admission.admit(() => resumeSkillRun(host, runId)), admission);
  done.catch(() => undefined);
  return { runId, queued: true, done };
}

/** how many times in a row a run is resumed after its code worker was lost with the sandbox's spawner */
export const HOST_LOSS_RESUMES = 3;

/**
 * A run whose code worker died with the sandbox's spawner (SandboxHostLostError) was left resumable,
 * nothing in it failed: it goes through the admission again and resumes from its last commit.
 */
export function resumeAfterHostLoss(host: Host, runId: string, done: Promise<RunOutcome>, admission: RunAdmission, left = HOST_LOSS_RESUMES): Promise<RunOutcome> {
  return done.catch((error: unknown) => {
    // by code: Next may bundle the error classes twice (boot and the routes)
    if ((error as { code?: unknown } | null)?.code !== new SandboxHostLostError('').code || left <= 0) throw error;
    return resumeAfterHostLoss(host, runId, admission.admit(() => resumeSkillRun(host, runId)), admission, left - 1);
  });
}

/**
 * On boot: every run left unfinished — interrupted ones first (they had their turn), then queued
 * ones, each oldest first — goes through the admission. `onResult` hears of each as it ends.
 */
export async function admitRecordedRuns(host: Host, admission: RunAdmission, onResult?: (r: ResumeResult) => void): Promise<{ interrupted: number; queued: number; done: Promise<ResumeResult[]> }> {
  const ids = await host.store.listResumable();
  const runs = await Promise.all(ids.map(async (id) => ({ id, status: (await runStatusOf(host.store, id)) ?? undefined })));
  const ordered = [...runs.filter((r) => r.status !== 'queued'), ...runs.filter((r) => r.status === 'queued')];
  const done = Promise.all(
    ordered.map((r) =>
      resumeAfterHostLoss(host, r.id, admission.admit(() => resumeSkillRun(host, r.id)), admission)
        .then(
          (outcome): ResumeResult => ({ runId: r.id, outcome }),
          (error: unknown): ResumeResult => ({ runId: r.id, error }),
        )
        .then((result) => {
          onResult?.(result);
          return result;
        }),
    ),
  );
  return { interrupted: ordered.length - runs.filter((r) => r.status === 'queued').length, queued: runs.filter((r) => r.status === 'queued').length, done };
}
