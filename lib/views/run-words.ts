/** The words a run's status is (the kernel's RUN_STATUSES, restated here so the browser need not load the kernel). */
export const RUN_STATUS_WORDS = ['running', 'completed', 'failed', 'aborted'] as const;
export type RunStatusWord = (typeof RUN_STATUS_WORDS)[number];
