/**
 * The event vocabulary of a run. Every transition of a run is one event in its
 * append-only log, numbered by `seq` (1, 2, 3 … without gaps).
 *
 * Owns: the event type names and the shape of their `data`. Does not: assign
 * seqs or write anything (journal.ts does, through the store port).
 *
 * Names follow the seed's `step_completed`: snake_case `noun_verb`.
 */
export const EVENT = {
  runStarted: 'run_started',
  runResumed: 'run_resumed',
  /** a queued run got its turn: the app drives it from here (`waitedMs`: how long it was queued) */
  runAdmitted: 'run_admitted',
  phaseStarted: 'phase_started',
  /** one memoized step finished: a model turn, a tool call, a stage, a processor step */
  stepCompleted: 'step_completed',
  phaseCompleted: 'phase_completed',
  /** the finish artifact is durable in the workspace (before the postprocessor) */
  artifactPersisted: 'artifact_persisted',
  /** an override of a machine-derived field the model wrote anyway */
  factOverridden: 'fact_overridden',
  runCompleted: 'run_completed',
  runFailed: 'run_failed',
  runAborted: 'run_aborted',
} as const;
export type EventType = (typeof EVENT)[keyof typeof EVENT];

/** What kind of step a `step_completed` event records. */
export type StepKind = 'model' | 'tool' | 'stage' | 'processor';

export const TERMINAL_EVENTS: ReadonlySet<string> = new Set([EVENT.runCompleted, EVENT.runFailed, EVENT.runAborted]);
