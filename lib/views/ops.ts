/**
 * The read model of operations: who drove each part of a run, and the app's
 * health (`GET /api/health`). Zod, like every view (index.ts).
 */
import { z } from 'zod';

/**
 * One stretch of a run driven by one process: from the event that started or resumed it
 * (`run_started` / `run_resumed`, which record the driver) to the event before the next one.
 */
export const RunDriverView = z
  .object({
    fromSeq: z.number().int(),
    toSeq: z.number().int(),
    /** when it took the run */
    at: z.number(),
    /** `worker`, `app` or `cli` (null for a run recorded before drivers were) */
    kind: z.string().nullable(),
    /** the worker's id (`stagecraft worker`), else null */
    worker: z.string().nullable(),
    host: z.string().nullable(),
    pid: z.number().int().nullable(),
  })
  .strict();
export type RunDriverView = z.infer<typeof RunDriverView>;

export const WorkerView = z
  .object({
    id: z.string(),
    host: z.string(),
    pid: z.number().int(),
    concurrency: z.number().int(),
    activeRuns: z.number().int(),
    startedAt: z.number(),
    seenAt: z.number(),
    stoppedAt: z.number().nullable(),
  })
  .strict();
export type WorkerView = z.infer<typeof WorkerView>;

/** `GET /api/health`: 200 when the store answers, 503 (same shape) when it does not */
export const HealthView = z
  .object({
    status: z.enum(['ok', 'store_unreachable']),
    store: z
      .object({
        reachable: z.boolean(),
        backend: z.enum(['postgres', 'pglite', 'memory']),
        location: z.string(),
        /** why it cannot be reached */
        error: z.string().optional(),
      })
      .strict(),
    sandbox: z
      .object({
        /** STAGECRAFT_SANDBOX */
        mode: z.enum(['off', 'auto', 'required']),
        /** whether code steps run isolated (bubblewrap) here */
        isolated: z.boolean(),
        /** why not, when they do not */
        reason: z.string().optional(),
        /** when a worker's cgroup caps (processes, memory) do not all hold here: why (no cgroup can be made, or a worker started outside its own) */
        cgroups: z.string().optional(),
      })
      .strict(),
    runs: z
      .object({
        /** STAGECRAFT_WORKERS as honoured: `external` (stagecraft worker processes) or `in-process` */
        drivenBy: z.enum(['in-process', 'external']),
        /** jobs waiting on the run queue for a worker (null: no queue here, or the store is away) */
        queueDepth: z.number().int().nullable(),
        /** runs recorded as queued, not started yet (null when the store is away) */
        queued: z.number().int().nullable(),
        /** runs being driven now (null when the store is away) */
        running: z.number().int().nullable(),
      })
      .strict(),
    /** `stagecraft worker` processes seen in the last minute, the most recently seen first */
    workers: z.array(WorkerView),
  })
  .strict();
export type HealthView = z.infer<typeof HealthView>;
