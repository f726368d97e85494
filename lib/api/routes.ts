/**
 * The route table: every route of the HTTP API, once. A route file under
 * app/api serves its entry with `handle(routes.x, fn)` (lib/server/http/handle.ts);
 * the browser calls it with `callRoute(routes.x, input)` or
 * `routeQuery(routes.x, input)` (lib/client). Both take their types and their
 * checks from the entry, so a route and its caller cannot disagree.
 *
 * Adding a route: add an entry here (method, path with `:params`, the zod
 * schemas, a summary), write `app/api/<path, :x as [x]>/route.ts` exporting
 * `export const <METHOD> = handle(routes.<name>, async ({ params, query, body }) => op(...))`
 * with one lib/server operation, and add a line to the README's API table.
 * api-contract.test.ts fails until the file serves the entry.
 */
import { z } from 'zod';
import { MAX_SEQ } from '../kernel/events';
import { defineRoute, emptyAnswer, jsonAnswer, streamAnswer, wholeNumber } from './route-def';
import {
  AbortedRunView,
  BaselineDivergenceView,
  CompareView,
  ForkBody,
  ForkedRunView,
  ForkPointView,
  ImportView,
  RegressBody,
  RegressView,
  ReplayBody,
  ReplayView,
  RunExportView,
  AbortRunBody,
  CreateSkillBody,
  EventPageView,
  EventView,
  HealthView,
  RenameSkillBody,
  RestoredVersionView,
  ResumedRunView,
  RunEndView,
  RunFilterQuery,
  RunPageView,
  RunStatsView,
  RunItemView,
  RunStateView,
  RunTimelineView,
  RunValueView,
  RunView,
  SavedVersionView,
  SaveVersionBody,
  SessionBody,
  SkillDetailView,
  SkillView,
  StartedRunView,
  StartRunBody,
  ValidateBody,
  ValidationView,
  VersionSummaryView,
  VersionView,
  versionInPath,
  versionRef,
} from '../views';

/** the largest exported run an import takes (a run's log and artifacts can be larger than a request) */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
/** what an import's refusal calls the file the app was sent (`<source>: <why>`): the page names it by its own name */
export const UPLOADED_IMPORT_SOURCE = 'the uploaded file';
/** the most events one page of a run's log holds */
export const MAX_EVENT_PAGE = 1000;
/** visits a timeline window holds at most */
export const MAX_TIMELINE_PAGE = 200;
/** the most runs one page of the runs list holds */
export const MAX_RUN_PAGE = 500;
/** the most buckets the runs chart is drawn with */
export const MAX_RUN_BUCKETS = 500;

const SkillParams = z.object({ name: z.string() });
// a hash that could never name a version is a 400 saying what does; a well-formed one no version has, a 404
const VersionParams = z.object({ name: z.string(), hash: versionInPath });
const RunParams = z.object({ id: z.string() });
/** missing and empty say the same: what to name */
const FORK_POINT_HINT = 'name the fork point: ?at=POSITION (a phase name, draft/r2/model, __post__/3, input, …)';
const forkPointName = z.string({ error: FORK_POINT_HINT }).min(1, { error: FORK_POINT_HINT });
// a seq is a Postgres integer: one past it (MAX_SEQ) is no event of any run (and the database would refuse it)
const seq = (what: string) =>
  z
    .number({ error: `must be a whole number (${what})` })
    .int({ error: `must be a whole number (${what})` })
    .min(0, { error: `must be 0 or more (${what})` })
    .max(MAX_SEQ, { error: `must be at most ${MAX_SEQ} (${what})` });

export const routes = {
  // ------------------------------------------------------------ skills and versions
  listSkills: defineRoute({
    method: 'GET',
    path: '/api/skills',
    summary: 'every skill, with its latest version and last run',
    answer: jsonAnswer(z.object({ skills: z.array(SkillView) }).strict()),
  }),
  createSkill: defineRoute({
    method: 'POST',
    path: '/api/skills',
    summary: 'create a skill (`from`: `blank`, or a skill or example to copy)',
    body: CreateSkillBody,
    answer: jsonAnswer(SkillDetailView, 201),
  }),
  getSkill: defineRoute({
    method: 'GET',
    path: '/api/skills/:name',
    summary: 'a skill, with its latest version and files',
    params: SkillParams,
    answer: jsonAnswer(SkillDetailView),
  }),
  renameSkill: defineRoute({
    method: 'PATCH',
    path: '/api/skills/:name',
    summary: 'rename a skill',
    params: SkillParams,
    body: RenameSkillBody,
    answer: jsonAnswer(SkillDetailView),
  }),
  deleteSkill: defineRoute({
    method: 'DELETE',
    path: '/api/skills/:name',
    summary: 'delete a skill (its versions and runs stay inspectable)',
    params: SkillParams,
    answer: emptyAnswer(),
  }),
  listVersions: defineRoute({
    method: 'GET',
    path: '/api/skills/:name/versions',
    summary: 'the versions of a skill, newest first',
    params: SkillParams,
    answer: jsonAnswer(z.object({ versions: z.array(VersionSummaryView) }).strict()),
  }),
  saveVersion: defineRoute({
    method: 'POST',
    path: '/api/skills/:name/versions',
    summary: 'save a bundle as the latest version (answers its findings too); `push: true` as `stagecraft push` does: a skill of that name made when there is none',
    params: SkillParams,
    body: SaveVersionBody,
    answer: jsonAnswer(SavedVersionView, 201),
  }),
  getVersion: defineRoute({
    method: 'GET',
    path: '/api/skills/:name/versions/:hash',
    summary: 'one version with its files (a unique hash prefix will do)',
    params: VersionParams,
    answer: jsonAnswer(VersionView),
  }),
  restoreVersion: defineRoute({
    method: 'POST',
    path: '/api/skills/:name/versions/:hash/restore',
    summary: 'make a version the latest again (its origin becomes `restore`)',
    params: VersionParams,
    answer: jsonAnswer(RestoredVersionView),
  }),
  validate: defineRoute({
    method: 'POST',
    path: '/api/validate',
    summary: 'the findings `stagecraft validate --json` gives',
    body: ValidateBody,
    answer: jsonAnswer(ValidationView),
  }),

  // ------------------------------------------------------------ runs
  listRuns: defineRoute({
    method: 'GET',
    path: '/api/runs',
    summary: 'runs, newest first, filtered and searched, a keyset page at a time',
    query: RunFilterQuery.extend({ cursor: z.string().min(1).optional(), limit: wholeNumber(1, MAX_RUN_PAGE).optional() }),
    answer: jsonAnswer(RunPageView),
  }),
  runStats: defineRoute({
    method: 'GET',
    path: '/api/runs/stats',
    summary: 'the filtered runs over time: counts by status per bucket, p50/p95 duration, failure points',
    query: RunFilterQuery.extend({ buckets: wholeNumber(1, MAX_RUN_BUCKETS).optional() }),
    answer: jsonAnswer(RunStatsView),
  }),
  startRun: defineRoute({
    method: 'POST',
    path: '/api/runs',
    summary: 'start a run of a stored version (answers once it is recorded)',
    body: StartRunBody,
    answer: jsonAnswer(StartedRunView, 201),
  }),
  getRun: defineRoute({
    method: 'GET',
    path: '/api/runs/:id',
    summary: 'a run: status, caller artifact, error, report, traces, steps',
    params: RunParams,
    answer: jsonAnswer(RunView),
  }),
  listRunEvents: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/events',
    summary: "a page of a run's event log, after a seq",
    params: RunParams,
    query: z.object({ after: seq('the seq to read after').optional(), limit: wholeNumber(1, MAX_EVENT_PAGE).optional() }),
    answer: jsonAnswer(EventPageView),
  }),
  getRunTimeline: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/timeline',
    summary: "the run page's report and timeline: phase visits, rounds, rung lanes, model turns, tool calls, processor steps, failures; `from` and `limit` ask for a window of the visits (the rest come as the outline)",
    params: RunParams,
    query: z.object({ from: seq('the index of the first visit of the window').optional(), limit: wholeNumber(1, MAX_TIMELINE_PAGE).optional() }),
    answer: jsonAnswer(RunTimelineView),
  }),
  getRunState: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/state',
    summary: "the run's state after event `seq` (default: the last): one fold of its events 1..seq, and what that event changed",
    params: RunParams,
    query: z.object({ seq: seq('the event to fold up to').optional() }),
    answer: jsonAnswer(RunStateView),
  }),
  getRunItem: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/items/:seq',
    summary: 'the detail of the item recorded at `seq`: a stage with the context it was handed, a model turn, a tool call, a processor step',
    params: z.object({ id: z.string(), seq: z.coerce.number({ error: 'must be a whole number (the seq of the item)' }).int({ error: 'must be a whole number (the seq of the item)' }).min(1, { error: 'must be 1 or more (the seq of the item)' }) }),
    answer: jsonAnswer(RunItemView),
  }),
  getRunValue: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/value',
    summary: 'one value in full, named by the `{seq, path}` ref a state or item view gave in its place',
    params: RunParams,
    query: z.object({ seq: seq('the seq of the ref'), path: z.string({ error: 'name the value: ?path= from the ref' }).min(1, { error: 'name the value: ?path= from the ref' }) }),
    answer: jsonAnswer(RunValueView),
  }),
  streamRun: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/stream',
    summary: "server-sent events: the run's events as they are recorded (from `Last-Event-ID` or `after`), then `end`",
    params: RunParams,
    query: z.object({ after: seq('the seq to stream after').optional() }),
    answer: streamAnswer({ message: EventView, end: RunEndView }),
  }),
  resumeRun: defineRoute({
    method: 'POST',
    path: '/api/runs/:id/resume',
    summary: 'resume an interrupted run (a changed skill is refused before anything runs)',
    params: RunParams,
    answer: jsonAnswer(ResumedRunView, 202),
  }),
  abortRun: defineRoute({
    method: 'POST',
    path: '/api/runs/:id/abort',
    summary:
      'end a run as aborted, on your request (`{reason?}`): an interrupted one at once; one being driven (here, by a CLI, by a worker) once its driver stops it — 200 `aborted` when that lands within 5 s, else 202 `aborting`',
    params: RunParams,
    body: AbortRunBody,
    answer: jsonAnswer(AbortedRunView, 200, (a) => (a.status === 'aborting' ? 202 : 200)),
  }),

  // ------------------------------------------------------------ replay, fork, compare, regress, export
  replayRun: defineRoute({
    method: 'POST',
    path: '/api/runs/:id/replay',
    summary: "re-execute a run against the skill's latest version (or `version`), answered from its recording: identical, or every divergence",
    params: RunParams,
    // every option has a default: an empty body replays against the latest version
    body: ReplayBody.optional().default({}),
    answer: jsonAnswer(ReplayView),
  }),
  forkRun: defineRoute({
    method: 'POST',
    path: '/api/runs/:id/fork',
    summary: 'a new run: the steps before `at` answered from this one, the value there edited, then live; `{}` reruns from its failed step',
    params: RunParams,
    body: ForkBody.optional().default({}),
    answer: jsonAnswer(ForkedRunView, 201),
  }),
  forkPoint: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/fork',
    summary: 'the value at a fork point (what the fork editor opens with) and its schema',
    params: RunParams,
    query: z.object({ at: forkPointName, version: versionRef.optional() }),
    answer: jsonAnswer(ForkPointView),
  }),
  compareRuns: defineRoute({
    method: 'GET',
    path: '/api/compare',
    summary: "two runs aligned step by step (`a`, `b`); `b` alone: its first divergence from the last completed run of its skill",
    query: z.object({ a: z.string().min(1).optional(), b: z.string({ error: 'name the run to compare' }).min(1, { error: 'name the run to compare' }) }),
    answer: jsonAnswer(z.union([CompareView, BaselineDivergenceView])),
  }),
  regressSkill: defineRoute({
    method: 'POST',
    path: '/api/skills/:name/regress',
    summary: "a skill's postprocessor (of `version`, or of unsaved `files` laid over it) over its past runs' finish artifacts: the runs that would change",
    params: SkillParams,
    body: RegressBody.optional().default({}),
    answer: jsonAnswer(RegressView),
  }),
  exportRun: defineRoute({
    method: 'GET',
    path: '/api/runs/:id/export',
    summary: 'the run as one JSON file with content hashes: its version, events, traces and artifacts (a download)',
    params: RunParams,
    answer: jsonAnswer(RunExportView),
  }),
  importRuns: defineRoute({
    method: 'POST',
    path: '/api/runs/import',
    summary: 'add an exported run (the file as the body, size-capped); every hash is checked, nothing runs',
    // the exported file as it is, up to its own cap (larger than a request's); checked whole before anything is written
    rawBody: MAX_IMPORT_BYTES,
    answer: jsonAnswer(ImportView, 201),
  }),

  // ------------------------------------------------------------ operations
  health: defineRoute({
    method: 'GET',
    path: '/api/health',
    summary: 'whether the store answers, the sandbox mode, where runs are driven, the queue depth and the workers seen in the last minute (503, same shape, while the store is unreachable)',
    answer: jsonAnswer(HealthView),
  }),

  // ------------------------------------------------------------ session
  signIn: defineRoute({
    method: 'POST',
    path: '/api/session',
    summary: 'sign in with the token (JSON, or the sign-in form)',
    body: SessionBody,
    form: true,
    answer: jsonAnswer(z.object({ ok: z.literal(true) }).strict()),
  }),
  signOut: defineRoute({
    method: 'DELETE',
    path: '/api/session',
    summary: 'sign out',
    answer: emptyAnswer(),
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
