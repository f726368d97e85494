/** The words a run's status is (the kernel's RUN_STATUSES, restated here so the browser need not load the kernel). */
/** `queued`: recorded, waiting for its turn to be driven (STAGECRAFT_MAX_RUNS runs at once) */
export const RUN_STATUS_WORDS = ['queued', 'running', 'completed', 'failed', 'aborted'] as const;
export type RunStatusWord = (typeof RUN_STATUS_WORDS)[number];
