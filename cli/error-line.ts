/** What the CLI says on stderr for an error that ended a command (or, with several runs, one run's replay). */
import { StagecraftError } from '../lib/kernel/errors';

/** a StagecraftError's message says what happened and what to do; anything else is a bug, with its stack */
export function errorLine(e: unknown): string {
  if (e instanceof StagecraftError) return e.message;
  return `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
}
