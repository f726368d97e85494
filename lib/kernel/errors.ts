/**
 * The error classes of Stagecraft: one class per failure kind, all under
 * `StagecraftError`, each with a stable snake_case `code`, the HTTP status an
 * API caller should see, and a message that says what happened, why, and what
 * to do.
 *
 * Owns: the vocabulary of failures. Does not: map errors to HTTP responses or
 * CLI exit codes (that happens in exactly one place each, in lib/server and the
 * CLI), and never throws strings or plain objects.
 */
/*
 * One module per failure family (lib/kernel/error-families); this path re-exports them all, and is
 * the one to import from.
 */
export * from './error-families/base';
export * from './error-families/skill-errors';
export * from './error-families/step-errors';
export * from './error-families/store-errors';
export * from './error-families/run-errors';
export * from './error-families/replay-errors';
