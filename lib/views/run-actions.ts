/**
 * What the run actions and the live stream answer: resuming, aborting, and
 * the end of a run's event stream.
 */
import { z } from 'zod';
import { RUN_STATUS_WORDS } from './run-words';
import { CLI_REQUESTER } from './requester';

/** how a resume asked for from the app stands when it answers: still going (running), or already ended */
export const ResumedRunView = z.object({ runId: z.string(), status: z.enum([...RUN_STATUS_WORDS, 'superseded']) }).strict();
export type ResumedRunView = z.infer<typeof ResumedRunView>;

/**
 * `POST /api/runs/<id>/abort`: why (kept in the run's error); the body may be left out. `via: "cli"`
 * with `requestedBy`: the request is a `stagecraft abort` that came through the app (the CLI beside
 * the running app), recorded as the command records it on the store (`cli (user dana)`, via cli);
 * without them, the app's own. `requestedBy` is only what the CLI sends (`cliRequester`), so a caller
 * cannot have the run record any other text as who asked.
 */
export const AbortRunBody = z
  .object({
    reason: z.string().min(1).max(500).optional(),
    via: z.literal('cli').optional(),
    requestedBy: z
      .string()
      .regex(CLI_REQUESTER, 'who asks must be "cli" or "cli (user NAME)", as `stagecraft abort` says it (NAME: 1-64 characters, no whitespace or parentheses)')
      .optional(),
  })
  .strict()
  .optional();
export type AbortRunBody = z.infer<typeof AbortRunBody>;

/**
 * `aborted` (200): the run has ended so. `aborting` (202): another process drives it and has not
 * ended it yet; it will, within moments (or whoever resumes it will, if that process died).
 */
export const AbortedRunView = z
  .object({
    runId: z.string(),
    status: z.enum(['aborted', 'aborting']),
    /** the run's error once aborted: `requestedBy: "user"`, `via: "app"`; null while aborting */
    error: z.record(z.string(), z.unknown()).nullable(),
    /** its run_skill children that were still running, aborted (or asked to abort) too */
    abortedChildren: z.array(z.string()),
  })
  .strict();
export type AbortedRunView = z.infer<typeof AbortedRunView>;

/** the last message of a run's event stream: the run has ended so */
export const RunEndView = z.object({ runId: z.string(), status: z.enum(RUN_STATUS_WORDS) }).strict();
export type RunEndView = z.infer<typeof RunEndView>;
