/**
 * What the run actions and the live stream answer: resuming, aborting, and
 * the end of a run's event stream.
 */
import { z } from 'zod';
import { RUN_STATUS_WORDS } from './run-words';

/** how a resume asked for from the app stands when it answers: still going (running), or already ended */
export const ResumedRunView = z.object({ runId: z.string(), status: z.enum([...RUN_STATUS_WORDS, 'superseded']) }).strict();
export type ResumedRunView = z.infer<typeof ResumedRunView>;

/** `POST /api/runs/<id>/abort`: why (kept in the run's error); the body may be left out */
export const AbortRunBody = z
  .object({ reason: z.string().min(1).max(500).optional() })
  .strict()
  .optional();
export type AbortRunBody = z.infer<typeof AbortRunBody>;

export const AbortedRunView = z
  .object({
    runId: z.string(),
    status: z.literal('aborted'),
    /** the run's error: `requestedBy: "user"`, `via: "app"` */
    error: z.record(z.string(), z.unknown()),
    /** its run_skill children that were still running, aborted first */
    abortedChildren: z.array(z.string()),
  })
  .strict();
export type AbortedRunView = z.infer<typeof AbortedRunView>;

/** the last message of a run's event stream: the run has ended so */
export const RunEndView = z.object({ runId: z.string(), status: z.enum(RUN_STATUS_WORDS) }).strict();
export type RunEndView = z.infer<typeof RunEndView>;
