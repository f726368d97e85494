/** `stagecraft resume [RUN]`, `stagecraft abort RUN`, `stagecraft events RUN`, `stagecraft runs`. */
import { AppAnswerError, RunNotFoundError, RunNotResumableError, UsageError, errorToJson } from '../lib/kernel/errors';
import { endedNotResumable } from '../lib/kernel/runner';
import { RUN_STATUSES, type RunEvent, type RunStatus } from '../lib/kernel/ports';
import { decodeRunCursor, listRuns } from '../lib/server/runs/list-runs';
import { runStats } from '../lib/server/runs/run-stats';
import { RUN_OUTCOMES, type RunCursor, type RunOutcomeWord } from '../lib/store/run-index';
import { abortSkillRun, resumeAllRuns, resumeSkillRun, type ResumeResult } from '../lib/server/runs/resume-run';
import { summarizeRun } from '../lib/server/runs/run-summary';
import { awaitAbort } from '../lib/server/runs/await-abort';
import type { RunReport } from '../lib/kernel/report';
import { isEmptyRange, parseRangeTime, RANGE_TIME_FORMS, untilOf } from '../lib/views/run-time-range';
import { checkModelSpec } from '../lib/models';
import { shellWord } from '../lib/kernel/shell-word';
import { userInfo } from 'node:os';
import { parse } from './args';
import { withHost, withHostOrApp } from './store';
import { undrivenLook } from '../lib/server/runs/run-driver';
import type { OpenedStore } from '../lib/store';
import type { AppAbort, AppClient } from './through-app';
import type { RunPageView, RunStatsView, RunSummaryView } from '../lib/views';
import { cliRequester } from '../lib/views/requester';
import { byStageWords } from '../lib/views/blocked-by';
import type { Io } from './main';
import { bundleRootOf, columns, printEvent, printSummary, takeOnLine } from './print';
import { rerunPoint } from '../lib/server/runs/failed-step';
import { cutShortOf, cutShortWords } from '../lib/views/cut-short';
import { sayHowToResumeOnStop } from './stop-words';
import { cutText } from '../lib/kernel/cut-text';

const isDone = (status: string) => status === 'completed' || status === 'superseded';

/** what `superseded` (the kernel's word) means to whoever reads `resume`'s line: the run was not interrupted */
const SUPERSEDED_WORDS = ' — another process drives it (its own run command, a worker or the app); nothing to do here';

export async function resumeCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, model: { type: 'string' } }, { min: 0, max: 1, names: 'at most one run id' });
  // what the command was given, checked before the store opens and whatever state the run is in
  if (values.model !== undefined) {
    checkModelSpec(values.model);
    if (!positionals[0]) throw new UsageError(`--model applies to one run: name it (stagecraft resume RUN --model ${shellWord(values.model)}); without a run id, each interrupted run resumes with its own model.`);
  }
  const runId = positionals[0];
  if (runId) {
    const takeOn = values.json ? null : runId;
    const summary = await withHostOrApp(
      io,
      async (host) =>
        summarizeRun(
          host.store,
          await resumeSkillRun(host, runId, { model: values.model })
            .catch(async (e: unknown) => {
              throw await withTakeOnLine(e, takeOn, async () => ({ status: (await host.store.getRun(runId))?.status ?? '', events: await host.store.readEvents(runId) }));
            })
            .finally(sayHowToResumeOnStop(runId, io, values.json ? (stopped) => stopped : undefined)),
        ),
      (app) =>
        resumedInApp(app, runId, io).catch(async (e: unknown) => {
          throw await withTakeOnLine(e, takeOn, async () => ({ status: (await app.run(runId)).status, events: (await app.events(runId)) as RunEvent[] }));
        }),
      { runsCode: true, notThroughApp: values.model === undefined ? null : { command: 'resume', why: RESUME_MODEL_IN_THE_APP } },
    );
    if (values.json) io.out(JSON.stringify(summary));
    else if (summary.status === 'superseded') io.out(`run ${runId}: another process is resuming it; nothing to do here`);
    else printSummary(summary, io);
    return isDone(summary.status) ? 0 : 1;
  }
  return withHost(async (host) => {
    const rowOf = (r: ResumeResult) =>
      r.outcome ? { runId: r.runId, status: r.outcome.status, error: r.outcome.error } : { runId: r.runId, status: 'not_resumed', error: errorToJson(r.error) };
    // each run as it ends (a long list shows progress): the finished on stdout, the others (and why) on stderr
    const all = await resumeAllRuns(host, undefined, (r) => {
      if (values.json) return;
      const row = rowOf(r);
      (isDone(row.status) ? io.out : io.err)(`${row.runId}: ${row.status}${row.error ? ` — ${String((row.error as { message?: string }).message)}` : ''}${row.status === 'superseded' ? SUPERSEDED_WORDS : ''}`);
    });
    const rows = all.map(rowOf);
    if (values.json) io.out(JSON.stringify({ resumed: rows }));
    else if (rows.length === 0) io.out('no interrupted runs');
    return rows.every((r) => isDone(r.status)) ? 0 : 1;
  }, { runsCode: true, notThroughApp: { command: 'resume', why: RESUME_ALL_IN_THE_APP } });
}

/**
 * A resume refused because the run ended failed, or aborted by a step or a contract: its error ends
 * with the command that takes it on from where it failed (`run`'s own `next:` line), since a resume
 * never will. `runId` null (--json): the error as it is.
 */
async function withTakeOnLine(e: unknown, runId: string | null, read: () => Promise<{ status: string; events: RunEvent[] }>): Promise<unknown> {
  if (!(e instanceof RunNotResumableError) || runId === null) return e;
  const { status, events } = await read();
  const next = takeOnLine(runId, rerunPoint(status, events));
  if (next) e.message = `${e.message}\n${next}`;
  return e;
}

const RESUME_MODEL_IN_THE_APP = '--model: the app resumes a run with the model it ran with; another model is for a resume on the store itself (stop the app first).';
const RESUME_ALL_IN_THE_APP =
  'the app resumes every interrupted run itself when it starts (its log says how each went); name one run to resume it through the app: stagecraft resume RUN.';

/**
 * `resume RUN` through the app that holds the store: the run as a resume on the store ends it — a
 * completed one as it is; an interrupted one resumed by the app (`POST /api/runs/<id>/resume`) and
 * followed to its end; a queued one followed, as the app admits it; one the app drives already,
 * superseded (another process resumes it); one that ended otherwise, refused as the store refuses it.
 */
async function resumedInApp(app: AppClient, runId: string, io: Io): Promise<RunSummaryView> {
  const { followRun, summaryOf } = await import('./through-app');
  const run = await app.run(runId);
  if (run.status === 'completed') return summaryOf(run);
  if (run.status !== 'running' && run.status !== 'queued') throw endedNotResumable(runId, run.status);
  if (run.status === 'running') {
    try {
      await app.resume(runId);
    } catch (e) {
      if (!(e instanceof AppAnswerError && e.code === 'run_claimed')) throw e;
      // the app drives it already: as a resume on the store answers one another process holds
      return { ...summaryOf(await app.run(runId)), status: 'superseded', output: null, error: null, report: null };
    }
  }
  return (await followRun(app, runId, io)).summary;
}

export async function abortCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, reason: { type: 'string' } }, { min: 1, max: 1, names: 'one run id' });
  const reason = values.reason ?? 'no reason given';
  const aborted = await withHostOrApp<AppAbort>(
    io,
    async (host) => {
      const { outcome, children } = await abortSkillRun(host, positionals[0], reason, { via: 'cli', requestedBy: whoAsks() });
      // a run another process drives (the app, a worker, another CLI) ends once its driver hears of the request
      const landed = await awaitAbort(host, outcome, CLI_ABORT_WAIT_MS);
      if (landed.status === 'aborting') return { runId: outcome.runId, children, landed: { status: 'aborting' } };
      const { run } = landed;
      const summary = await summarizeRun(host.store, { runId: run.id, status: run.status, output: run.output, error: run.error, report: run.report as RunReport | null });
      return { runId: outcome.runId, children, landed: { status: 'aborted', summary, error: run.error } };
    },
    (app) => app.abort(positionals[0], reason, CLI_ABORT_WAIT_MS, whoAsks()),
  );
  const { runId, children, landed } = aborted;
  if (landed.status === 'aborting') {
    if (values.json) io.out(JSON.stringify({ runId, status: 'aborting', abortedChildren: children }));
    else io.out(`run ${runId}: asked to abort; the process driving it has not stopped it yet (it will, at its next chance, or whoever resumes it will)`);
    return 0;
  }
  if (values.json) io.out(JSON.stringify({ ...landed.summary, abortedChildren: children }));
  else {
    io.out(`run ${runId}: aborted; it will not be resumed`);
    const cut = cutShortOf(landed.error);
    if (cut) io.out(`cut short: ${cutShortWords(cut)} (nothing of it is recorded)`);
    for (const c of children) io.out(`  its child run ${c}: aborted`);
  }
  return 0;
}

/** how long `stagecraft abort` waits for the process driving the run to end it */
const CLI_ABORT_WAIT_MS = 15_000;

/** who aborts from this command line, as the run records it (and as the app takes it: `AbortRunBody`) */
function whoAsks(): string {
  try {
    return cliRequester(userInfo().username);
  } catch {
    return cliRequester(null);
  }
}

export async function eventsCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, follow: { type: 'boolean' } }, { min: 1, max: 1, names: 'one run id' });
  const runId = positionals[0];
  if (values.follow) return (await import('./follow-events')).followEvents(runId, { json: values.json === true }, io);
  const { events, isUndriven } = await withHostOrApp<{ events: Omit<RunEvent, 'runId'>[]; isUndriven: boolean }>(
    io,
    async (host) => {
      const run = await host.store.getRun(runId);
      if (!run) throw new RunNotFoundError(runId);
      // running on the embedded store this command holds: nobody drives it (as `runs` says)
      return { events: (await host.store.readEvents(runId)).map(({ runId: _r, ...e }) => e), isUndriven: run.status === 'running' && host.store.backend === 'pglite' };
    },
    async (app) => ({ events: await app.events(runId), isUndriven: false }),
  );
  // the API's event views (lib/views), as `GET /api/runs/<id>/events` pages them
  if (values.json) {
    // each event as its kind's view (lib/views/events.ts): what the API and the browser read too. Imported
    // here, by the one command that needs it: the views are zod's schemas (~100 modules, ~130 ms of CPU to
    // load), which `resume`, `abort` and `runs` — the same module — never use
    const { RunEventsView } = await import('../lib/views/events');
    io.out(JSON.stringify(RunEventsView.parse({ runId, events })));
    return 0;
  }
  // the bundle folders the run executed from, cut from the words as the report cuts them
  const roots = events.flatMap(bundleRootOf);
  // each line, and what a code step printed under it
  for (const e of events) printEvent(e, roots, io);
  // a log that stops mid-run: why nothing follows, and the ways on
  if (isUndriven) io.err(undrivenWords([runId]));
  return 0;
}

/** a comma-separated list of words, each one of `allowed` */
function wordsOf<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[], what: string): T[] | undefined {
  if (raw === undefined) return undefined;
  const words = raw.split(',').filter(Boolean);
  const bad = words.filter((x) => !allowed.includes(x as T));
  if (bad.length) throw new UsageError(`${flag} ${bad.join(',')}: ${what} is one of ${allowed.join(', ')}`);
  return words as T[];
}

/** `--since 2026-01-31`, `--since 2026-01`, `--since 2026` or `--since 1764000000000`: epoch ms, read as the runs page reads `?from=` (a date, month or year alone: its first instant, UTC) */
function timeOf(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = parseRangeTime(raw);
  if (ms === undefined) throw new UsageError(`${flag} ${JSON.stringify(raw)}: not a time — give ${RANGE_TIME_FORMS}`);
  return ms;
}

export async function runsCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(
    argv,
    {
      json: { type: 'boolean' },
      status: { type: 'string' },
      outcome: { type: 'string' },
      skill: { type: 'string' },
      failed: { type: 'string' },
      attention: { type: 'boolean' },
      search: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    { min: 0, max: 0, names: 'no arguments' },
  );
  const status = wordsOf('--status', values.status, RUN_STATUSES, 'a status');
  const outcome = wordsOf<RunOutcomeWord>('--outcome', values.outcome, RUN_OUTCOMES, 'an outcome');
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, not ${JSON.stringify(values.limit)}`);
  // said in the CLI's words (the API's speak of ?cursor=), before the store opens
  const after = values.cursor === undefined ? undefined : cursorArg(values.cursor);
  const from = timeOf('--since', values.since);
  const until = timeOf('--until', values.until);
  // a date alone is that whole day, a month or a year the whole of it: up to the next one's start (a time is exact)
  const to = until === undefined || values.until === undefined ? until : untilOf(values.until, until);
  // an empty range matches nothing: the flags' mistake, not "no runs match" — the page's rule (isEmptyRange),
  // on the end as untilOf gives it, so the same day for both flags is that day
  if (from !== undefined && until !== undefined && to !== undefined && isEmptyRange(from, to)) {
    // the same instant for both (--until is exclusive), or a --since after the --until's start
    if (from === until) throw new UsageError(`--since ${values.since} is the same time as --until ${values.until}: the range is empty (--until is exclusive), so no run can match. Give a later --until, or a date alone (2026-12-04) for a whole day.`);
    throw new UsageError(`--since ${values.since} is after --until ${values.until}: no run can match. Swap them (--since is the earlier time).`);
  }
  const filter = {
    status: status as RunStatus[] | undefined,
    outcome,
    skill: values.skill,
    failed: values.failed,
    attention: values.attention,
    q: values.search,
    from,
    to,
  };
  // a --skill no skill has (a typo, a deleted skill), asked while the store is open: said below, as the runs page says it
  const unknown = async (page: RunPageView, exists: (name: string) => Promise<boolean>) => page.runs.length === 0 && !!values.skill && !(await exists(values.skill));
  // a --failed no run failed at (a typo, a made-up word): the failure points runs have, or null when some run failed there
  const failedNowhere = async (page: RunPageView, stats: (q: { failed: string; buckets: number }) => Promise<RunStatsView>) => {
    if (page.runs.length > 0 || values.failed === undefined || values.cursor !== undefined) return null;
    // with --failed alone: its total counts the runs failed there; its failures are every run's failure points
    const s = await stats({ failed: values.failed, buckets: 1 });
    return s.total > 0 ? null : s.failures.map((f) => f.at);
  };
  const { page, unknownSkill, holdsStore, unclaimed, failurePoints } = await withHostOrApp(
    io,
    async (host) => {
      // the run views the API answers (lib/views: RunPageView), never the store's records
      const page = await listRuns(host, { ...filter, limit, cursor: after });
      // the embedded store is this process's alone while it lists: no other process can be driving a run of it
      const unclaimed = values.json ? [] : await unclaimedRuns(host.store as OpenedStore, page);
      const failurePoints = await failedNowhere(page, (q) => runStats(host, q));
      return { page, unknownSkill: await unknown(page, async (name) => Boolean(await host.skills.getSkill(name))), holdsStore: host.store.backend === 'pglite', unclaimed, failurePoints };
    },
    async (app) => {
      const page = await app.runsPage({ ...filter, limit, cursor: values.cursor });
      return { page, unknownSkill: await unknown(page, (name) => app.skillExists(name)), holdsStore: false, unclaimed: [] as string[], failurePoints: await failedNowhere(page, (q) => app.runStats(q)) };
    },
  );
  if (values.json) io.out(JSON.stringify(page));
  else {
    // each column as wide as its widest value, under a header (FAILED when a run has failed somewhere;
    // nothing above no runs). The header goes to stderr, as the "more:" line does: stdout stays one
    // line per run for what reads it (`| wc -l`, `| head -1`), and a terminal shows the table whole.
    // BLOCKED (last: its reason is the longest cell) when a completed run was blocked: by what, and why
    const failedAt = page.runs.some((r) => r.failedAt);
    const blocked = page.runs.some((r) => r.blockedBy);
    // TAKEN ON when a run that needed attention was taken on by a fork that completed (it no longer needs attention)
    const takenOn = page.runs.some((r) => r.takenOnBy);
    const rows = page.runs.map((r) => [
      r.runId,
      r.status,
      r.skill,
      new Date(r.createdAt).toISOString(),
      r.outcome ?? '-',
      ...(failedAt ? [r.failedAt ? `at ${r.failedAt}` : ''] : []),
      ...(takenOn ? [r.takenOnBy ? `by ${r.takenOnBy}, completed` : ''] : []),
      ...(blocked ? [r.blockedBy ? blockedCell(r.blockedBy) : ''] : []),
    ]);
    const header = ['RUN', 'STATUS', 'SKILL', 'CREATED', 'OUTCOME', ...(failedAt ? ['FAILED'] : []), ...(takenOn ? ['TAKEN ON'] : []), ...(blocked ? ['BLOCKED'] : [])];
    if (rows.length) {
      const [head, ...lines] = columns([header, ...rows]);
      io.err(head);
      for (const line of lines) io.out(line);
    }
    if (page.next) io.err(`more: stagecraft runs --cursor ${page.next} (with the same filters)`);
    // nothing listed is said, where the "more:" line goes (stdout stays one line per run)
    const filtered = Object.values(filter).some((v) => v !== undefined && v !== false);
    if (page.runs.length === 0) io.err(filtered ? 'no runs match these filters' : values.cursor ? 'no more runs' : 'no runs yet');
    if (unknownSkill) io.err(`no skill is named ${values.skill} now: check its spelling (names are exact), or it was deleted and none of its runs match`);
    // a point no run failed at (a typo, a made-up word) is said, as a skill no one has is: a filter that
    // matches nothing yet is still a filter (exit 0), and a script may ask before any run failed there
    if (failurePoints) {
      const here = failurePoints.length ? `the runs here failed at ${failurePoints.join(', ')}` : 'no run here has failed yet';
      io.err(
        `no run failed at ${values.failed}: --failed takes a failure point, as the FAILED column of \`stagecraft runs\` shows it: a stage (<capability>/<stage>), a step's position (__post__/2) or the phase a run stopped in; ${here}`,
      );
    }
    if (holdsStore) {
      const left = page.runs.filter((r) => r.status === 'running').map((r) => r.runId);
      if (left.length) io.err(undrivenWords(left));
    }
    for (const runId of unclaimed) io.err(undrivenOnPostgres(runId, 'running'));
  }
  return 0;
}

/**
 * Runs recorded as running that no process drives — their command was killed outright (SIGKILL, a
 * runner lost), which leaves no word behind — named, with the ways on.
 */
export function undrivenWords(runIds: string[], status: 'running' | 'queued' = 'running'): string {
  if (runIds.length === 1) {
    const id = shellWord(runIds[0]);
    // a queued run was never started: nothing stopped, nothing admitted it (the app admits it as it starts)
    const why = status === 'running' ? 'whatever ran it stopped' : 'nothing here admits it (the app does as it starts)';
    return `run ${runIds[0]} is recorded as ${status}, but no process drives it: the embedded store is this command's, so ${why}. Take it up with \`stagecraft resume ${id}\`, or end it with \`stagecraft abort ${id}\`.`;
  }
  return `${runIds.length} runs listed are recorded as running, but no process drives them: the embedded store is this command's, so whatever ran them stopped. Take them up with \`stagecraft resume\` (all of them) or \`stagecraft resume RUN\`, or end one with \`stagecraft abort RUN\`.`;
}

/** A run on Postgres that nothing drives (run-driver.ts undrivenLook), named, with the ways on (`events --follow` adds "Still following."). */
export function undrivenOnPostgres(runId: string, status: 'running' | 'queued'): string {
  const id = shellWord(runId);
  if (status === 'queued') return `run ${runId} is queued, and no \`stagecraft worker\` was seen in the last minute: it starts when one (or an app that drives its runs) takes it.`;
  return `run ${runId} is recorded as running, but no process drives it now (none holds its claim): a worker's run is taken up by another worker once its lease ends; else take it up with \`stagecraft resume ${id}\`, or end it with \`stagecraft abort ${id}\`.`;
}

/**
 * how long `runs` and `events --follow` wait before they look again at a running run no session held the
 * claim of: a worker takes it a moment after its job (one wait for both, so the two say the same of one run)
 */
export const DRIVER_CHECK_MS = 2_000;

/**
 * The listed runs recorded as running that no process drives on a Postgres store (their command was
 * killed outright: SIGKILL, a machine lost): two looks at their claims, a moment apart, as `events
 * --follow` does. Nothing on the embedded store (it says so itself) or through the app.
 */
async function unclaimedRuns(store: OpenedStore, page: RunPageView): Promise<string[]> {
  if (store.backend !== 'postgres') return [];
  const look = async (ids: string[]) => {
    const looks = await Promise.all(ids.map(async (id) => ((await undrivenLook(store, id)) === 'unclaimed' ? id : null)));
    return looks.filter((id): id is string => id !== null);
  };
  const first = await look(page.runs.filter((r) => r.status === 'running').map((r) => r.runId));
  if (first.length === 0) return [];
  await new Promise((r) => setTimeout(r, DRIVER_CHECK_MS));
  return look(first);
}

/** characters of a denial's reason a `stagecraft runs` line shows (`--json` carries its first 300, the run page's report all of it) */
const BLOCKED_CELL_REASON_CHARS = 80;

/**
 * A blocked run's BLOCKED cell, `by stage path_guard: denied call 2 (…)` under the header: the row's
 * words with the reason on one line (a newline in it would break the line per run) and cut short.
 * The reason is a capability's own text: on a terminal its controls are shown escaped, as all output is.
 */
function blockedCell(b: NonNullable<RunPageView['runs'][number]['blockedBy']>): string {
  const reason = b.reason.replace(/\s+/g, ' ').trim();
  return byStageWords({ ...b, reason: cutText(reason, BLOCKED_CELL_REASON_CHARS) });
}

/** --cursor decoded once, here: one `stagecraft runs` could not have printed is a usage error in the CLI's words */
function cursorArg(s: string): RunCursor {
  try {
    return decodeRunCursor(s);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    throw new UsageError(`--cursor ${JSON.stringify(s).slice(0, 60)} is not a cursor \`stagecraft runs\` printed: pass the one its "more:" line gave, as it is.`);
  }
}
