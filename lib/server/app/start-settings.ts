/**
 * The server's own check of the operator's settings as it starts (instrumentation.ts, before the store is
 * opened): the ones `npm start` checks before it builds anything (scripts/start.mjs: run-settings.ts, and
 * STAGECRAFT_SANDBOX's value), for an app started with `next start` directly, as a Docker image does. A bad
 * one stops the server, exit 1, every one named on stderr as npm start names them: not an app up and healthy
 * to a monitor that answers every new run with a 400 and resumes none of the recorded ones.
 *
 * STAGECRAFT_SANDBOX=required is probed here too (the probe boot.ts would make next, its verdict kept in the
 * data dir): without a working bubblewrap the server stops, said in one line, where the probe's throw inside
 * Next's start-up hook left the server answering.
 *
 * Owns: stopping the start on a bad setting. Does not: say what is wrong with one (each reader does), PORT
 * (`next start -p` refuses its own), or choose the isolation the app uses (boot.ts, host.ts).
 */
import { UsageError } from '../../kernel/errors';
import { isolationFor, SandboxUnavailableError, sandboxMode } from '../../sandbox/isolation';
import { appSettingsProblems } from '../run-settings';
import { dataDirOf } from '../host';
import { serverLog } from '../log';

/**
 * Every setting of `env` the app would refuse, as npm start says each (none: []). `probe`: the sandbox's
 * isolation under a mode (isolationFor; a test gives one of its own), asked only for `required`.
 */
export async function startSettingsProblems(env: Record<string, string | undefined>, probe: typeof isolationFor = isolationFor, cwd = process.cwd()): Promise<string[]> {
  const problems = await appSettingsProblems(env);
  try {
    const mode = sandboxMode(env);
    if (mode === 'required') probe(mode, { cacheDir: dataDirOf(env, cwd) });
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof SandboxUnavailableError)) throw e;
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
