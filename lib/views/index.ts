/**
 * The read model: the one typed shape of every skill, version, run, trace,
 * step and event page that leaves the server — the HTTP API sends these, the
 * CLI's `--json` prints them, and the browser reads them. Also the request
 * bodies the API accepts. Zod schemas, so a response is checked against its
 * contract (`.strict()`: nothing unlisted leaks out) and a request is parsed,
 * not trusted.
 *
 * Owns: field names and types. Times are epoch milliseconds, as the CLI has
 * always printed them. Does not: build views (lib/server does) or know about
 * HTTP. Browser code may import it (zod and the skill name pattern only).
 */
import { z } from 'zod';
import { SKILL_NAME_PATTERN } from '../skill/schema';
import { RunReportView } from './inspector';
import { RunDriverView } from './ops';
import { versionRef } from './replay';
import { RUN_STATUS_WORDS } from './run-words';
import { RUN_OUTCOME_WORDS, RunListItemView } from './run-list';

export * from './events';
export * from './inspector';
export * from './ops';

const json = z.unknown();
const ms = z.number();

// ---------------------------------------------------------------- validation

export const DiagnosticView = z
  .object({
    severity: z.enum(['error', 'warning']),
    rule: z.string(),
    message: z.string(),
    file: z.string(),
    line: z.number().int(),
    column: z.number().int(),
    endLine: z.number().int().optional(),
    endColumn: z.number().int().optional(),
    path: z.string(),
  })
  .strict();
export type DiagnosticView = z.infer<typeof DiagnosticView>;

/** what `stagecraft validate --json` prints and `POST /api/validate` answers */
export const ValidationView = z
  .object({ ok: z.boolean(), file: z.string(), errors: z.number().int(), warnings: z.number().int(), diagnostics: z.array(DiagnosticView) })
  .strict();
export type ValidationView = z.infer<typeof ValidationView>;

// ---------------------------------------------------------------- skills and versions

export const Files = z.record(z.string(), z.string());
export type Files = z.infer<typeof Files>;

export const VersionSummaryView = z
  .object({
    hash: z.string(),
    skill: z.string(),
    description: z.string(),
    /** how it was made: app | push | run | example | create | rename | restore | import */
    origin: z.string(),
    fileCount: z.number().int(),
    sizeBytes: z.number().int(),
    createdAt: ms,
    savedAt: ms,
  })
  .strict();
export type VersionSummaryView = z.infer<typeof VersionSummaryView>;

/**
 * `stagecraft versions SKILL --json`: the versions `GET /api/skills/<name>/versions` lists (newest save
 * first), each saying whether it is the skill's latest — the one a run, a pull or a replay takes when no
 * --version is given (a restore makes an older one latest again)
 */
export const SkillVersionsView = z
  .object({ skill: z.string(), latest: z.string().nullable(), versions: z.array(VersionSummaryView.extend({ isLatest: z.boolean() }).strict()) })
  .strict();
export type SkillVersionsView = z.infer<typeof SkillVersionsView>;

export const VersionView = VersionSummaryView.extend({ files: Files }).strict();
export type VersionView = z.infer<typeof VersionView>;

/** a skill's newest run, saying how it went as the runs list does (RunListItemView's words) */
export const LastRunView = z
  .object({
    id: z.string(),
    status: z.enum(RUN_STATUS_WORDS),
    createdAt: ms,
    outcome: z.enum(RUN_OUTCOME_WORDS).nullable(),
    needsAttention: z.boolean(),
    failedAt: z.string().nullable(),
    errorMessage: z.string().nullable(),
    /** what blocked it, when it completed blocked: as a runs list row's `blockedBy` */
    blockedBy: RunListItemView.shape.blockedBy,
  })
  .strict();

export const SkillView = z
  .object({
    name: z.string(),
    description: z.string(),
    createdAt: ms,
    /** when its latest version was saved (null: no version yet) */
    savedAt: ms.nullable(),
    versionCount: z.number().int(),
    latestVersion: z.string().nullable(),
    lastRun: LastRunView.nullable(),
  })
  .strict();
export type SkillView = z.infer<typeof SkillView>;

/** `GET /api/skills/<name>`: the skill with its latest version and files */
export const SkillDetailView = SkillView.extend({ version: VersionView.nullable() }).strict();
export type SkillDetailView = z.infer<typeof SkillDetailView>;

/** what saving answers: the version, whether it is new, and the findings of its skill.md */
export const SavedVersionView = z.object({ version: VersionSummaryView, isNew: z.boolean(), validation: ValidationView }).strict();
export type SavedVersionView = z.infer<typeof SavedVersionView>;

/** what restoring answers: the version it made the latest again (origin `restore`), with its files and findings */
export const RestoredVersionView = z.object({ version: VersionView, validation: ValidationView }).strict();
export type RestoredVersionView = z.infer<typeof RestoredVersionView>;

// ---------------------------------------------------------------- runs

export const TraceView = z
  .object({
    round: z.number().int(),
    phase: z.string(),
    rung: z.string(),
    capability: z.string(),
    stage: z.string(),
    status: z.enum(['ok', 'failed', 'refused', 'skipped']),
    effects: z.object({ asked: z.array(z.string()), granted: z.array(z.string()) }).strict(),
    error: z.string().nullable(),
    seq: z.number().int(),
    durationMs: z.number(),
  })
  .strict();
export type TraceView = z.infer<typeof TraceView>;

export const StepView = z
  .object({
    phase: z.string(),
    index: z.number().int(),
    type: z.string(),
    status: z.string(),
    position: z.string(),
    seq: z.number().int(),
    error: json.optional(),
  })
  .strict();
export type StepView = z.infer<typeof StepView>;

export const RunErrorView = z.record(z.string(), json).and(z.object({ code: z.string(), message: z.string() }));
export type RunErrorView = z.infer<typeof RunErrorView>;

/** the run report (`deriveReport`): facts and the words that say what happened (inspector.ts) */
export const ReportView = RunReportView;
export type ReportView = z.infer<typeof ReportView>;

export { RUN_STATUS_WORDS, type RunStatusWord } from './run-words';
export { shownModel } from './shown-model';
export { RUN_OUTCOME_WORDS, RunListItemView, RunPageView, RunStatsView, RunFilterQuery } from './run-list';
export { isEmptyRange, parseRangeTime, RANGE_TIME_FORMS, untilOf } from './run-time-range';

/** what `stagecraft run --json` prints (unchanged since the CLI first had it) */
export const RunSummaryView = z
  .object({
    runId: z.string(),
    status: z.string(),
    output: json,
    error: RunErrorView.nullable(),
    report: ReportView.nullable(),
    traces: z.array(TraceView),
    steps: z.array(StepView),
  })
  .strict();
export type RunSummaryView = z.infer<typeof RunSummaryView>;

/** a run derived from another: a replay or a fork of it (a run_skill child is a run) */
export const DerivedRunView = z.object({ runId: z.string(), kind: z.string(), forkPoint: z.string().nullable(), status: z.string(), createdAt: ms }).strict();
export type DerivedRunView = z.infer<typeof DerivedRunView>;

/** `GET /api/runs/<id>`: the summary, plus what the run is of */
export const RunView = RunSummaryView.extend({
  skill: z.string(),
  /** the version it ran (null for a run recorded before versions were bundles) */
  version: z.string().nullable(),
  model: z.string(),
  input: json,
  /** run | replay | fork */
  kind: z.string(),
  /** the replayed or forked run (or the caller of a run_skill child) */
  parentRunId: z.string().nullable(),
  /** a fork's fork point */
  forkPoint: z.string().nullable(),
  /** a replay's or fork's: the version its parent ran (null when unknown), so the page can say a rerun took another */
  parentVersion: z.string().nullable().optional(),
  /** the replays and forks of this run, newest first */
  derivedRuns: z.array(DerivedRunView),
  /** the fork that completed down this run's chain of forks and took it on, when it needed attention (a runs list row's `takenOnBy`); absent where the store does not say */
  takenOnBy: z.string().nullable().optional(),
  createdAt: ms,
  updatedAt: ms,
  /** the number of events recorded so far */
  eventCount: z.number().int(),
  /** when the last of them was recorded: a running run's last progress (a step is recorded when it ends); null before any */
  lastEventAt: ms.nullable().optional(),
  /** which process drove each part of the run (a worker, the app, a CLI), in order */
  drivers: z.array(RunDriverView),
  /** a failed run, or one aborted by a step or a contract: where `Rerun from here` reruns it from — its failed step, else the phase it stopped in (a finish its contract refused, a model turn that did not come); null for a run aborted on request (a fork with no point named still takes that one on from the phase it stopped in). The run page's only source for its rerun point */
  rerunFrom: z.string().nullable().optional(),
  /** a running run: whether the process answering drives it now (holds its claim), so resuming it there would do nothing */
  drivenHere: z.boolean().optional(),
}).strict();
export type RunView = z.infer<typeof RunView>;


export const EventView = z.object({ seq: z.number().int(), type: z.string(), at: ms, data: z.record(z.string(), json) }).strict();
export type EventView = z.infer<typeof EventView>;

/** `GET /api/runs/<id>/events?after=&limit=`: `next` is the `after` of the following page, null at the end of the log so far */
export const EventPageView = z.object({ runId: z.string(), events: z.array(EventView), next: z.number().int().nullable() }).strict();
export type EventPageView = z.infer<typeof EventPageView>;

export const StartedRunView = z.object({ runId: z.string() }).strict();
export { ResumedRunView, AbortRunBody, AbortedRunView, RunEndView } from './run-actions';
export { cliRequester } from './requester';

// ---------------------------------------------------------------- errors

export const ErrorView = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), json).optional() }).strict() })
  .strict();
export type ErrorView = z.infer<typeof ErrorView>;

// ---------------------------------------------------------------- request bodies

const skillName = z.string().regex(new RegExp(SKILL_NAME_PATTERN), 'a skill name is 1–64 characters: a lowercase letter, then lowercase letters, digits or _');

export const CreateSkillBody = z.object({ name: skillName, from: z.string().min(1).optional() }).strict();
export const RenameSkillBody = z.object({ name: skillName }).strict();
export const FilesBody = z.object({ files: Files }).strict();
/** saving a version: `push` saves it as `stagecraft push` does (the skill made when there is none of that name; origin push) */
export const SaveVersionBody = FilesBody.extend({ push: z.literal(true).optional() }).strict();
/** `skill`: the stored skill these files are (to be) a version of, for the name check */
export const ValidateBody = z.object({ files: Files, skill: z.string().optional() }).strict();
/** signing in: the token, and the app path to go on to (a form's field) */
export const SessionBody = z.object({ token: z.string({ error: "send the token: {\"token\": \"<STAGECRAFT_TOKEN>\"}" }), next: z.string().optional() });
export const StartRunBody = z
  .object({
    skill: z.string().min(1),
    version: versionRef.optional(),
    input: z.record(z.string(), json),
    /** `scripted:<bundle path>` (a model script of the bundle), `openai` or `openai:<model>`; default: the bundle's model.yaml */
    model: z.string().min(1).optional(),
    /**
     * a bundle's files in place of a stored version (`stagecraft run DIR` beside the app): recorded as a
     * run records its folder — a version of `skill` (content-addressed: the same files, the same version)
     */
    files: Files.optional(),
  })
  .strict()
  .refine((b) => b.files === undefined || b.version === undefined, { error: 'send a version or files, not both', path: ['files'] });
export type StartRunBody = z.infer<typeof StartRunBody>;

export * from './replay';
