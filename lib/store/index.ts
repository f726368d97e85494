/**
 * lib/store's public face: open the durable store (Postgres or embedded
 * PGlite), the PrismaStore that implements the kernel's StorePort, its error
 * kinds, and the skill-version helpers' types. Importing it opens nothing.
 */
export { openStore, getStore, closeStore, redactUrl, DEFAULT_DATA_DIR, COMMAND_SHARED_BUFFERS } from './open-store';
export type { OpenStoreOptions, OpenedStore } from './open-store';
export { PrismaStore } from './prisma-store';
export type { StoreBackend } from './prisma-store';
export { EventLogImmutableError, RunExistsError, SeqGapError, UnsupportedValueError } from './errors';
export type { SavedVersion, SkillRecord, SkillRepo, VersionOrigin, VersionRecord, VersionSummary, LastRun, SaveVersionOptions } from './skills';
export { bundleHash, MIN_HASH_PREFIX, VERSION_ORIGINS } from './skills';
export type { RunCursor, RunIndex, RunIndexRow, RunOutcomeWord, RunPage, RunSearch, RunStats } from './run-index';
export { RUN_OUTCOMES } from './run-index';
