/**
 * The server's own check of the operator's settings as it starts (instrumentation.ts, before the store is
 * opened): the ones `npm start` checks before it builds anything (scripts/start.mjs: run-settings.ts, and
 * STAGECRAFT_SANDBOX's value), for an app started with `next start` directly, as a Docker image does. A bad
 * one stops the server, exit 1, every one named on stderr as npm start names them: not an app up and healthy
 * to a monitor that answers every new run with a 400 and resumes none of the recorded ones.
 *
 * Owns: stopping the start on a bad setting. Does not: say what is wrong with one (each reader does), PORT
 * (`next start -p` refuses its own), or probe STAGECRAFT_SANDBOX=required (boot.ts).
 */
import { UsageError } from '../../kernel/errors';
import { sandboxMode } from '../../sandbox/isolation';
import { appSettingsProblems } from '../run-settings';
import { serverLog } from '../log';

/** Every setting of `env` the app would refuse, as npm start says each (none: []). */
export async function startSettingsProblems(env: Record<string, string | undefined>): Promise<string[]> {
  const problems = await appSettingsProblems(env);
  try {
    sandboxMode(env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    problems.push(e.message);
  }
  return problems;
}

/** Ends the process (exit 1), each bad setting of `env` named on stderr, when there is one; else returns. */
export async function refuseBadSettings(env: Record<string, string | undefined> = process.env): Promise<void> {
  const problems = await startSettingsProblems(env);
  if (problems.length === 0) return;
  for (const p of problems) serverLog.error(`stagecraft: ${p}`);
  serverLog.error('stagecraft: not starting: fix or unset the settings above (README: Configuration).');
  process.exit(1);
}
