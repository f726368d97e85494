/**
 * The app's HTTP API, for the CLI commands that can go through it while the app holds the embedded
 * store: `runs`, `events`, `abort`, `export`, `compare`, `versions`, `push DIR`, `replay RUN…`,
 * `fork RUN`, `resume RUN`, `pull`, `import` and `regress` (cli/store.ts `withHostOrApp`), and `run
 * DIR` (cli/run-through-app.ts, which reaches the app itself once the folder is checked here). Each
 * answer is what the command reads from or writes to the store itself, in the same views, so it
 * prints the same; a run the app starts for `run` or `fork`, or resumes for `resume`, is followed to
 * its end here (`followRun`); the version the app answers `pull` is written out here, as pull writes
 * it (pull-skill.ts `writePulled`); the files `import` is given are checked here and added by the app
 * one after the other (`replay FILE` too, then replayed by it). What the app cannot do as asked stays
 * `store_locked`, saying why (cli/app-holder.ts `notThroughApp`): `fork` and `replay` with --skill
 * DIR or --trust, `fork` with a model script, `run` with --workspace, a model script outside the
 * bundle, or a skill that names run_skill, `resume` of every interrupted run (the app resumes them
 * itself as it starts) or with --model, `regress` with --trust or a --limit over the API's cap; and
 * `worker`, which needs a Postgres store (cli/worker.ts).
 *
 * Loaded only on that path: it brings the route table and its views (zod), which the command's own
 * path never loads. STAGECRAFT_TOKEN, when set, is sent as the app's bearer token.
 */
import { AppAnswerError, RunFinishedError, RunLeftByAppError, SkillNotFoundError, VersionNotFoundError } from '../lib/kernel/errors';
import { routes, MAX_EVENT_PAGE } from '../lib/api/routes';
import type { RouteAnswer, RouteDef, RouteInput } from '../lib/api/route-def';
import { ApiError, callRoute } from '../lib/client/api';
import type { RunEvent } from '../lib/kernel/ports';
import type { CompareView, EventView, ForkBody, ForkedRunView, ImportView, RegressView, ReplayView, ReportView, ResumedRunView, RunExportView, RunPageView, RunStatsView, RunSummaryView, RunView, SavedVersionView, SkillVersionsView, StartRunBody, VersionView } from '../lib/views';
import { shellWord } from '../lib/kernel/shell-word';
import { onStop } from './stop-words';

/** how long the app has to answer its first question before the command gives up on it */
const PROBE_TIMEOUT_MS = 5_000;
const POLL_MS = 200;

export type RunsQuery = NonNullable<RouteInput<typeof routes.listRuns>['query']>;

/** how an abort asked through the app stands: ended (the run as it is now), or its driver has not stopped it yet */
export type AppAbort = { runId: string; children: string[]; landed: { status: 'aborted'; summary: RunSummaryView; error: unknown } | { status: 'aborting' } };

export type AppClient = {
  url: string;
  runsPage(query: RunsQuery): Promise<RunPageView>;
  /** the runs chart's numbers (`GET /api/runs/stats`): here, the failure points runs have */
  runStats(query: NonNullable<RouteInput<typeof routes.runStats>['query']>): Promise<RunStatsView>;
  skillExists(name: string): Promise<boolean>;
  /** the log after `after` (default 0: the whole log), page after page (its events' data is JSON, as the store's) */
  events(runId: string, after?: number): Promise<Omit<RunEvent, 'runId'>[]>;
  /** `requestedBy`: who asks from this command line, recorded as the abort on the store records it (via cli) */
  abort(runId: string, reason: string, waitMs: number, requestedBy: string): Promise<AppAbort>;
  exportRun(runId: string): Promise<RunExportView>;
  compare(a: string, b: string): Promise<CompareView>;
  /** a skill's versions and which is the latest, as `skillVersions` gives them */
  versions(name: string): Promise<SkillVersionsView>;
  /** a run started in the app (of a stored version, or of a bundle's files), once it is recorded */
  startRun(body: StartRunBody): Promise<string>;
  /** a bundle's files saved as a version of `skill`, as `stagecraft push` saves them (the skill made when new) */
  push(skill: string, files: Record<string, string>): Promise<SavedVersionView>;
  /** a run as it is now */
  run(runId: string): Promise<RunView>;
  /** a run replayed by the app (against `version`, else the skill's latest), once the replay has ended */
  replay(runId: string, version?: string): Promise<ReplayView>;
  /** a fork started in the app, once it is recorded */
  fork(runId: string, body: ForkBody): Promise<ForkedRunView>;
  /** a skill's version with its files (`hash`: a hash or a unique prefix of one; none: the latest), as `stagecraft pull` takes it */
  version(name: string, hash?: string): Promise<VersionView>;
  /** an exported run added by the app (the file's text, checked here already), as `stagecraft import` adds it */
  importRun(text: string): Promise<ImportView>;
  /** a skill's postprocessor (of `version`, else its latest) over its past runs, checked by the app */
  regress(skill: string, body: { version?: string; limit?: number }): Promise<RegressView>;
  /** an interrupted run resumed by the app, once its resume holds (the app goes on driving it) */
  resume(runId: string): Promise<ResumedRunView>;
  /** the run once it has ended (asked every POLL_MS until then; `seen` is handed it each time, its end too) */
  runEnded(runId: string, seen?: (run: RunView) => Promise<void>): Promise<RunView>;
};

/**
 * A run the app drives, followed to its end: the run and its summary as `run --json` prints it on the
 * store. Ctrl-C (or SIGTERM) stops following, not the run (it is the app's): said, with how to abort it.
 */
export async function followRun(
  app: AppClient,
  runId: string,
  io: { err(line: string): void },
  seen?: (run: RunView) => Promise<void>,
): Promise<{ run: RunView; summary: RunSummaryView }> {
  // Ctrl-C, or SIGTERM (a cancelled CI job): the same words, the exit code of that signal
  const unstop = onStop((_signal, exitCode) => {
    io.err(`stagecraft: run ${runId} goes on in the app at ${app.url}; to abort it: stagecraft abort ${shellWord(runId)}`);
    process.exit(exitCode);
  });
  try {
    const run = await app.runEnded(runId, seen);
    return { run, summary: summaryOf(run) };
  } finally {
    unstop();
  }
}

/** a run as the app has it, in the summary `run --json`, `resume --json` and `abort --json` print on the store */
export function summaryOf(run: RunView): RunSummaryView {
  return { runId: run.runId, status: run.status, output: run.output, error: run.error, report: summaryLast(run.report), traces: run.traces, steps: run.steps };
}

/**
 * The report with its keys in the order the run's end gives them on the store (kernel/report.ts: its
 * summary line last): the app's answer comes read back in the view's order, the summary among the rest.
 */
function summaryLast(report: ReportView | null): ReportView | null {
  if (!report || report.summary === undefined) return report;
  const { summary, ...rest } = report;
  return { ...rest, summary };
}

/**
 * The app at `url`, once it answered; else what `unanswered` makes of why not (the store_locked error,
 * saying the app did not answer).
 */
export async function reachApp(url: string, unanswered: (why: string) => Error): Promise<AppClient> {
  const headers: Record<string, string> = process.env.STAGECRAFT_TOKEN ? { authorization: `Bearer ${process.env.STAGECRAFT_TOKEN}` } : {};
  let status: number;
  try {
    status = (await fetch(`${url}/api/health`, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })).status;
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw unanswered((e as Error).name === 'TimeoutError' ? `nothing within ${PROBE_TIMEOUT_MS / 1000} s` : (cause ?? (e as Error).message));
  }
  if (status === 401 || status === 403) throw unanswered(`it asks for its token: set STAGECRAFT_TOKEN to it (HTTP ${status})`);
  const call = async <R extends RouteDef>(route: R, input: RouteInput<R>): Promise<RouteAnswer<R>> => {
    try {
      return await callRoute(route, input, { baseUrl: url, headers });
    } catch (e) {
      // the app's error as it said it: the command fails as it would have on the store
      if (e instanceof ApiError) throw relayed(e);
      throw e;
    }
  };
  const getRun = (id: string): Promise<RunView> => call(routes.getRun, { params: { id } });
  return {
    url,
    runsPage: (query) => call(routes.listRuns, { query }),
    runStats: (query) => call(routes.runStats, { query }),
    skillExists: (name) =>
      call(routes.getSkill, { params: { name } }).then(
        () => true,
        (e: unknown) => (e instanceof SkillNotFoundError ? false : Promise.reject(e)),
      ),
    async events(runId, from = 0) {
      const all: EventView[] = [];
      for (let after = from; ; ) {
        const page = await call(routes.listRunEvents, { params: { id: runId }, query: { after, limit: MAX_EVENT_PAGE } });
        all.push(...page.events);
        if (page.next === null) return all as Omit<RunEvent, 'runId'>[];
        after = page.next;
      }
    },
    async abort(runId, reason, waitMs, requestedBy) {
      const giveUpAt = Date.now() + waitMs;
      const asked = await call(routes.abortRun, { params: { id: runId }, body: { reason, via: 'cli', requestedBy } });
      // the app waited a few seconds for the run's driver; the rest of the command's wait is waited here
      for (;;) {
        const run = await getRun(runId);
        const { status } = run;
        if (status === 'aborted') return { runId, children: asked.abortedChildren, landed: { status: 'aborted', summary: summaryOf(run), error: run.error } };
        if (status !== 'running' && status !== 'queued') throw new RunFinishedError(runId, status);
        if (Date.now() >= giveUpAt) return { runId, children: asked.abortedChildren, landed: { status: 'aborting' } };
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    },
    exportRun: (id) => call(routes.exportRun, { params: { id } }),
    // both runs named: the comparison (only `b` would be its baseline divergence)
    compare: async (a, b) => (await call(routes.compareRuns, { query: { a, b } })) as CompareView,
    async versions(name) {
      const { versions } = await call(routes.listVersions, { params: { name } });
      const latest = (await call(routes.getSkill, { params: { name } })).version?.hash ?? null;
      return { skill: name, latest, versions: versions.map((v) => ({ ...v, isLatest: v.hash === latest })) };
    },
    startRun: async (body) => (await call(routes.startRun, { body })).runId,
    run: getRun,
    push: (skill, files) => call(routes.saveVersion, { params: { name: skill }, body: { files, push: true } }),
    replay: (runId, version) => call(routes.replayRun, { params: { id: runId }, body: version === undefined ? {} : { version } }),
    fork: (runId, body) => call(routes.forkRun, { params: { id: runId }, body }),
    async version(name, hash) {
      if (hash !== undefined) return call(routes.getVersion, { params: { name, hash } });
      // the skill's latest, as the store gives it; none yet is said as the store says it
      const latest = (await call(routes.getSkill, { params: { name } })).version;
      if (!latest) throw new VersionNotFoundError(name, '-', 'it has no version yet');
      return latest;
    },
    importRun: (text) => call(routes.importRuns, { body: text }),
    regress: (skill, body) => call(routes.regressSkill, { params: { name: skill }, body }),
    resume: (runId) => call(routes.resumeRun, { params: { id: runId } }),
    runEnded: (runId, seen) => untilEnded(getRun, runId, POLL_MS, seen),
  };
}

/** polls in a row that see a running run the app does not drive before a follower gives up on it: a second */
const LEFT_POLLS = 5;

/**
 * The run once it ended, asked of `getRun` every `pollMs`. A run recorded as running that the app says
 * it does not drive (`drivenHere: false`), `LEFT_POLLS` polls in a row, was left by its drive without
 * an end (RunLeftByAppError): the app's log says why, and following it would never end. `seen` gets
 * each answer before it is acted on (`events --follow` reads the log past what it printed then, so the
 * answer that says the run ended is followed by its last events).
 */
export async function untilEnded(getRun: (id: string) => Promise<RunView>, runId: string, pollMs = POLL_MS, seen?: (run: RunView) => Promise<void>): Promise<RunView> {
  for (let undriven = 0; ; ) {
    const run = await getRun(runId);
    await seen?.(run);
    if (run.status !== 'running' && run.status !== 'queued') return run;
    undriven = run.status === 'running' && run.drivenHere === false ? undriven + 1 : 0;
    if (undriven >= LEFT_POLLS) throw new RunLeftByAppError(runId);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * The app's error as it said it; a skill name or a version hash that names none as the store says it,
 * so that the CLI words it as it does (error-line.ts: `stagecraft push`, `stagecraft versions`, not the API's route).
 */
function relayed(e: ApiError): Error {
  const details = (e.details ?? {}) as AppAnswerError['details'];
  if (e.code === 'skill_not_found' && typeof details.skill === 'string') return new SkillNotFoundError(details.skill);
  // its `why` back from its words (`Skill "x": WHY (HASH). …`), so that the CLI says what to do in its own
  if (e.code === 'version_not_found' && typeof details.skill === 'string' && typeof details.version === 'string') {
    const head = `Skill ${JSON.stringify(details.skill)}: `;
    const end = e.message.indexOf(` (${details.version}). `);
    if (e.message.startsWith(head) && end > head.length) return new VersionNotFoundError(details.skill, details.version, e.message.slice(head.length, end));
  }
  return new AppAnswerError(e.code, e.message, e.status, details);
}
