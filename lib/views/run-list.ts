/**
 * The runs list's views: a row, a keyset page of rows, the aggregate its chart
 * draws, and the query that narrows all three (`GET /api/runs`,
 * `GET /api/runs/stats`, `stagecraft runs --json`).
 *
 * Owns: these shapes. Times are epoch milliseconds. Does not: query (lib/store's
 * run index does) or build rows (lib/server/runs/list-runs.ts does).
 */
import { z } from 'zod';
import { RUN_STATUS_WORDS } from './run-words';

export const RUN_OUTCOME_WORDS = ['succeeded', 'blocked', 'failed'] as const;

const ms = z.number();

export const RunListItemView = z
  .object({
    runId: z.string(),
    skill: z.string(),
    /** the version it ran (null for a run recorded before versions were bundles) */
    version: z.string().nullable(),
    status: z.enum(RUN_STATUS_WORDS),
    model: z.string(),
    /** run | replay | fork */
    kind: z.string(),
    parentRunId: z.string().nullable(),
    /** a fork's fork point */
    forkPoint: z.string().nullable(),
    createdAt: ms,
    updatedAt: ms,
    /** the report's outcome (null while running) */
    outcome: z.enum(RUN_OUTCOME_WORDS).nullable(),
    /** failed, aborted by a step (not on a user's request), or blocked; and not taken on by a fork that completed (`takenOnBy`) */
    needsAttention: z.boolean(),
    /**
     * the newest fork of a failed, step-aborted or blocked run that completed: it took the run on, so the
     * run no longer needs attention (its status stays). Null when none did; optional: a row from before it was added has none.
     */
    takenOnBy: z.string().nullable().optional(),
    /** where it failed: `<capability>/<stage>`, or a processor step's position (`__post__/2`) */
    failedAt: z.string().nullable(),
    errorMessage: z.string().nullable(),
    /** start to end, once it has ended */
    durationMs: z.number().nullable(),
    /**
     * what blocked a completed run (its report's `blocked_by`): the stage that denied a tool call,
     * the call's index in its round, and the stage's reason (its first 300 characters); null for any
     * other run. Optional: a row from before it was added has none.
     */
    blockedBy: z.object({ stage: z.string(), call: z.number().int(), reason: z.string() }).strict().nullable().optional(),
    /** the first characters of its input, as JSON */
    inputPreview: z.string(),
  })
  .strict();
export type RunListItemView = z.infer<typeof RunListItemView>;

/** a page, newest first; `next` is the `cursor` of the page after it (null: the last page) */
export const RunPageView = z.object({ runs: z.array(RunListItemView), next: z.string().nullable() }).strict();
export type RunPageView = z.infer<typeof RunPageView>;

const StatusCounts = z.object({ queued: z.number().int(), running: z.number().int(), completed: z.number().int(), failed: z.number().int(), aborted: z.number().int() }).strict();

export const RunStatsView = z
  .object({
    total: z.number().int(),
    needsAttention: z.number().int(),
    byStatus: StatusCounts,
    /** the width of a bucket; bucket i covers [start, start + bucketMs) */
    bucketMs: z.number().int(),
    buckets: z.array(StatusCounts.extend({ start: ms }).strict()),
    /** of the runs that ended, in ms */
    duration: z.object({ count: z.number().int(), p50: z.number().nullable(), p95: z.number().nullable() }).strict(),
    /** the most frequent failure points (`failed` filter values) of the runs the other filters select, most frequent first */
    failures: z.array(z.object({ at: z.string(), count: z.number().int() }).strict()),
    /** whether any run, whatever the filters, has a failure point: with no `failures`, whether the filters hide some */
    anyFailed: z.boolean().optional(),
  })
  .strict();
export type RunStatsView = z.infer<typeof RunStatsView>;

/** a list filter's word, refused in the words of what it takes (zod's own: `Invalid option: expected one of "a"|"b"`) */
const oneOf = <T extends readonly [string, ...string[]]>(words: T, what: string) =>
  z.array(z.enum(words, { error: `${what} is one of ${words.join(', ')} (several: comma-separated)` }));

/** epoch ms, refused in those words (zod's own: `Invalid input: expected number, received string`) */
const epochMs = (what: string) => {
  const says = `must be epoch ms (a whole number of milliseconds since 1970, 0 or more): ${what}`;
  return z.number({ error: says }).int({ error: says }).min(0, { error: says });
};

/** the filters and search the list, its aggregate and `stagecraft runs` share */
export const RunFilterQuery = z.object({
  skill: z.string().min(1).optional(),
  status: oneOf(RUN_STATUS_WORDS, "a run's status").optional(),
  outcome: oneOf(RUN_OUTCOME_WORDS, "a run's outcome").optional(),
  /** a failure point, as `failedAt` shows it */
  failed: z.string().min(1).optional(),
  /** only runs that need attention (true) or only those that do not (false) */
  attention: z.boolean({ error: 'must be true or false (or 1 or 0)' }).optional(),
  /** created at or after, epoch ms */
  from: epochMs('the runs created at or after it').optional(),
  /** created before, epoch ms */
  to: epochMs('the runs created before it').optional(),
  /** a piece of a run id, an input or an error message */
  q: z.string().min(1).max(200).optional(),
});
export type RunFilterQuery = z.infer<typeof RunFilterQuery>;
