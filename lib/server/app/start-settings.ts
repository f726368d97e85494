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
 * Listening beyond loopback (`next start -H 0.0.0.0`) needs STAGECRAFT_TOKEN and a sandbox, as npm start
 * requires (scripts/start.mjs): the address is read from the server this process listens with.
 *
 * Owns: stopping the start on a bad setting. Does not: say what is wrong with one (each reader does), PORT
 * (`next start -p` refuses its own), or choose the isolation the app uses (boot.ts, host.ts).
 */
import net from 'node:net';
import { UsageError } from '../../kernel/errors';
import { isolationFor, SandboxUnavailableError, sandboxMode, unsandboxedListenProblem } from '../../sandbox/isolation';
import { isLoopback, listenProblem, securitySettings } from '../http/security';
import { appSettingsProblems } from '../run-settings';
import { dataDirOf } from '../host';
import { serverLog } from '../log';

/**
 * Every setting of `env` the app would refuse, as npm start says each (none: []). `probe`: the sandbox's
 * isolation under a mode (isolationFor; a test gives one of its own), asked only for `required`.
 */
export async function startSettingsProblems(
  env: Record<string, string | undefined>,
  probe: typeof isolationFor = isolationFor,
  cwd = process.cwd(),
  listening: readonly string[] = listeningAddresses(),
): Promise<string[]> {
  const problems = await appSettingsProblems(env);
  // beyond loopback (`next start -H 0.0.0.0`, as a Docker image starts it) the app needs a token and a
  // sandbox, as npm start requires: without a token the proxy's loopback Host check is all that stood in
  // the way, and a client anywhere could send `Host: 127.0.0.1`
  const beyond = listening.filter((a) => !isLoopback(a));
  for (const address of beyond.slice(0, 1)) {
    const problem = listenProblem(address, securitySettings(env));
    if (problem) problems.push(problem);
  }
  try {
    const mode = sandboxMode(env);
    if (mode === 'required' || beyond.length > 0) {
      const isolation = probe(mode, { cacheDir: dataDirOf(env, cwd) });
      const unsandboxed = beyond.length > 0 ? unsandboxedListenProblem(beyond[0], isolation) : null;
      if (unsandboxed) problems.push(unsandboxed);
    }
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof SandboxUnavailableError)) throw e;
    problems.push(e.message);
  }
  return problems;
}

/**
 * The addresses this process's TCP servers listen on: the one `next start -H HOST` opened (Next does not
 * say it, and its origin names 0.0.0.0 as localhost). Read from node's active handles; none where that is
 * not there.
 */
export function listeningAddresses(): string[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles.flatMap((h) => {
    if (!(h instanceof net.Server) || !h.listening) return [];
    const a = h.address();
    return a !== null && typeof a === 'object' ? [a.address] : [];
  });
}

/** Ends the process (exit 1), each bad setting of `env` named on stderr, when there is one; else returns. */
export async function refuseBadSettings(env: Record<string, string | undefined> = process.env): Promise<void> {
  const problems = await startSettingsProblems(env);
  if (problems.length === 0) return;
  for (const p of problems) serverLog.error(`stagecraft: ${p}`);
  serverLog.error('stagecraft: not starting: fix or unset the settings above (README: Configuration).');
  process.exit(1);
}
