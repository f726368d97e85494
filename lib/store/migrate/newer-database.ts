/**
 * The database holds migrations this install does not know: a newer Stagecraft applied them
 * (migrations.ts finds it; open-errors.ts says what to do). In a module of its own so that what
 * reports it loads nothing of the migration engine.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknown: string[]) {
    super(`the database has migrations this version of Stagecraft does not know: ${unknown.join(', ')}`);
  }
}
