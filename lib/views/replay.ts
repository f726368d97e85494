/**
 * The read model of replay, fork, compare, regression and export: what the
 * API answers, the CLI's `--json` prints and the browser reads (lib/views
 * holds the rest). Field names are contracts; times are epoch milliseconds.
 *
 * A divergence is one step whose status or output changed between two runs
 * (or that only one of them has, or where a replay had to stop), with both
 * values and a structural diff — a jsondiffpatch delta from the first value
 * to the second, which its formatters (html, annotated, jsonpatch) render.
 *
 * Owns: shapes. Does not: build them (lib/server/runs/*.ts do).
 */
import { z } from 'zod';
import { plural } from '../kernel/plural';

const json = z.unknown();
const ms = z.number();
const int = z.number().int();

/** the fewest hex digits that name a version (the store's MIN_HASH_PREFIX) */
const MIN_VERSION_PREFIX = 6;
/** what a version's name looks like, said wherever one is malformed (the API's 400s, the CLI's --version in its own words) */
export const VERSION_SHAPE = `must be a version's hash or a unique prefix of it: ${MIN_VERSION_PREFIX} to 64 hex digits (0-9, a-f)`;
/** the same, with where the API lists them: its 400s (a body, a query, a path) */
export const VERSION_HINT = `${VERSION_SHAPE}, as GET /api/skills/<name>/versions lists them`;
/** the same, where the version may be left out (a request's `version`, the CLI's --version) */
export const OPTIONAL_VERSION_HINT = `${VERSION_HINT}; leave it out for the latest version`;
const VERSION_PATTERN = new RegExp(`^[0-9a-fA-F]{${MIN_VERSION_PREFIX},64}$`);
const versionNamed = (hint: string) => z.string({ error: hint }).regex(VERSION_PATTERN, { error: hint });
/**
 * A version named in a request: a content hash or a prefix of one. A name that could never be a hash is
 * the caller's mistake (400, saying what to send); a well-formed one no version has stays a 404.
 */
export const versionRef = versionNamed(OPTIONAL_VERSION_HINT);
/** the same, as a path names it (`/api/skills/<name>/versions/<hash>`): there it cannot be left out */
export const versionInPath = versionNamed(VERSION_HINT);

// ---------------------------------------------------------------- divergences

export const DIVERGENCE_CHANGES = ['status', 'output', 'added', 'removed', 'model_request_changed', 'model_turn_unrecorded', 'tool_call_unrecorded', 'outcome'] as const;

/** one side of a divergence: the step's record (seq null for a run's outcome), its status and its value */
/** `said`: what the step did where its value says nothing of it ("passed — validate records no output": its null) */
export const DivergenceSideView = z.object({ seq: int.nullable(), status: z.string(), value: json, said: z.string().optional() }).strict();
export type DivergenceSideView = z.infer<typeof DivergenceSideView>;

const divergenceCommon = {
  /** the kernel's position (`draft/r2/model`, `__post__/3`), or `__post__` / a phase for a run's outcome */
  position: z.string(),
  /** model | tool | stage | processor | outcome */
  kind: z.string(),
  change: z.enum(DIVERGENCE_CHANGES),
  /** jsondiffpatch delta from the first value to the second; null when a side is missing */
  diff: json.nullable(),
  /** one line saying what changed */
  message: z.string(),
};

/** a replay's divergence: `recorded` is the replayed run's step, `replayed` the replay's */
export const ReplayDivergenceView = z.object({ ...divergenceCommon, recorded: DivergenceSideView.nullable(), replayed: DivergenceSideView.nullable() }).strict();
export type ReplayDivergenceView = z.infer<typeof ReplayDivergenceView>;

/** a comparison's divergence: `a` and `b` are the two runs' steps */
export const CompareDivergenceView = z.object({ ...divergenceCommon, a: DivergenceSideView.nullable(), b: DivergenceSideView.nullable() }).strict();
export type CompareDivergenceView = z.infer<typeof CompareDivergenceView>;

export const StoppedAtView = z.object({ position: z.string(), reason: z.string(), message: z.string() }).strict();

// ---------------------------------------------------------------- replay

/** `stagecraft replay --json`, `POST /api/runs/<id>/replay` */
export const ReplayView = z
  .object({
    /** `identical`, or `diverged` */
    verdict: z.enum(['identical', 'diverged']),
    identical: z.boolean(),
    /** the replayed run */
    runId: z.string(),
    /** the replay, itself a run (kind `replay`, parent `runId`) */
    replayRunId: z.string(),
    skill: z.string(),
    /** the version replayed with */
    version: z.string(),
    /** the replayed run's status, and the replay's */
    recordedStatus: z.string(),
    status: z.string(),
    /** where a replay that could not go on stopped (a changed model request, …) */
    stoppedAt: StoppedAtView.nullable(),
    /** every divergence, the first first */
    divergences: z.array(ReplayDivergenceView),
    steps: z.object({ compared: int, answered: int, executed: int }).strict(),
  })
  .strict();
export type ReplayView = z.infer<typeof ReplayView>;

export const ReplayBody = z.object({ version: versionRef.optional() }).strict();
export type ReplayBody = z.infer<typeof ReplayBody>;

// ---------------------------------------------------------------- fork

/** the fork points with names of their own: the run input, and the finish artifact (where the postprocessor starts) */
export const FORK_POINT_INPUT = 'input';
export const FORK_POINT_FINISH = '__post__';

export const ForkBody = z
  .object({
    /** the fork point; default on a failed or aborted run: its failed step */
    at: z.string().min(1).optional(),
    /** edits of the value at the point, in order: `path` into it (`a.b[0]`, `$`), the new JSON value */
    set: z.array(z.object({ path: z.string(), value: json }).strict()).optional(),
    /** the whole new value at the point (then `set` applies on top) */
    value: json.optional(),
    /** the version the fork runs (default: the skill's latest) */
    version: versionRef.optional(),
    /** another model for the rest of the run, as in POST /api/runs */
    model: z.string().min(1).optional(),
  })
  .strict();
export type ForkBody = z.infer<typeof ForkBody>;

/** `GET /api/runs/<id>/fork?at=`: the value at a fork point (what the fork editor opens with) */
export const ForkPointView = z
  .object({
    runId: z.string(),
    at: z.string(),
    kind: z.string(),
    value: json,
    /** false where there is nothing to edit: a fork there reruns the step */
    editable: z.boolean(),
    /** the JSON Schema an edited value must satisfy, where it has one (a finish artifact, a phase or run input); the fork checks it again */
    schema: json.nullable(),
    version: z.string(),
  })
  .strict();
export type ForkPointView = z.infer<typeof ForkPointView>;

/** `POST /api/runs/<id>/fork` (201, as soon as the fork is recorded; it goes on in the background) */
export const ForkedRunView = z.object({ runId: z.string(), parentRunId: z.string(), forkPoint: z.string(), version: z.string() }).strict();
export type ForkedRunView = z.infer<typeof ForkedRunView>;

// ---------------------------------------------------------------- compare

const tokens = z.object({ input: int, output: int }).strict();

export const CompareSideView = z
  .object({
    runId: z.string(),
    skill: z.string(),
    version: z.string().nullable(),
    kind: z.string(),
    status: z.string(),
    model: z.string(),
    output: json,
    error: json.nullable(),
    /** the steps compared (its rows) */
    steps: int,
    /** steps of its log not compared: inside a step the other run answered whole from a recording */
    insideAnswered: int,
    /** those steps by the step of the other run that holds them (answered whole there), and which of them this run edited */
    insideParents: z.array(z.object({ position: z.string(), steps: int, edited: z.array(z.string()) }).strict()).optional(),
    /** the tokens of its model turns that reported them */
    tokens,
    /** only when some model turn's endpoint did not report its tokens (unknown, not none): how many, of how many turns */
    tokensNotReported: z.object({ turns: int, of: int }).strict().optional(),
    /** from its first event to its last */
    durationMs: z.number(),
    createdAt: ms,
  })
  .strict();
export type CompareSideView = z.infer<typeof CompareSideView>;

export const CompareStepView = z
  .object({ seq: int, status: z.string(), durationMs: z.number(), tokens: tokens.nullable(), recorded: z.boolean(), tokensNotReported: z.literal(true).optional() })
  .strict();

export const COMPARE_ROW_CHANGES = ['same', 'status', 'output', 'added', 'removed', 'not_reached'] as const;

/** the two runs aligned by position; `a` or `b` null where only one run has the step */
export const CompareRowView = z
  .object({ position: z.string(), kind: z.string(), change: z.enum(COMPARE_ROW_CHANGES), a: CompareStepView.nullable(), b: CompareStepView.nullable() })
  .strict();
export type CompareRowView = z.infer<typeof CompareRowView>;

/** `stagecraft compare --json`, `GET /api/compare?a=&b=` */
export const CompareView = z
  .object({
    a: CompareSideView,
    b: CompareSideView,
    identical: z.boolean(),
    /** A and B are one run: `identical` then says nothing of a change (the CLI and the page say so) */
    sameRun: z.boolean(),
    firstDivergence: CompareDivergenceView.nullable(),
    divergences: z.array(CompareDivergenceView),
    rows: z.array(CompareRowView),
    stoppedAt: StoppedAtView.nullable(),
    /** how A and B are related when one is a replay or a fork of the other (`B is a fork of A, from …`); null else */
    lineage: z.string().nullable(),
    /**
     * the value a fork edited flowing in at its point (`__post__/1/input`, a phase's input, the finish
     * artifact at `__post__`), A's beside B's; `side` is the fork. Null (or absent) when neither is a
     * fork of the other with such an edit (an edited step output is that step's own row)
     */
    forkEdit: z.object({ position: z.string(), side: z.enum(['A', 'B']), a: json, b: json }).strict().nullable().optional(),
  })
  .strict();
export type CompareView = z.infer<typeof CompareView>;

/**
 * Said on compare's row for a fork's edited value flowing in at its point (the CLI's and the page's
 * words): which side holds the edit and which what was recorded there.
 */
export function forkEditWords(edit: { side: 'A' | 'B' }): string {
  const other = edit.side === 'A' ? 'B' : 'A';
  return `input, edited at the fork: ${edit.side}'s value is the fork's edit, ${other}'s what ${other} recorded there`;
}

/**
 * Where compare's row for a fork's edited input goes among the step rows: before the first row at its
 * point (the step it was handed to, or the first step after a phase's or the postprocessor's start);
 * 0 when none is there.
 */
export function forkEditIndex(rows: readonly { position: string }[], position: string): number {
  const at = position.endsWith('/input') ? position.slice(0, -'/input'.length) : position;
  const i = rows.findIndex((r) => r.position === at || r.position.startsWith(`${at}/`));
  return i < 0 ? 0 : i;
}

/**
 * Said of a run set beside itself (the CLI's and the page's words): it is always "identical", which
 * says nothing of a change.
 */
export const sameRunNote = (runId: string): string => `A and B are the same run, ${runId}: name another run for one side.`;

/**
 * Said above a comparison of runs of two skills (the CLI's and the page's words): their steps share
 * positions only by name, so a divergence there says little about a change. Null for one skill.
 */
export function otherSkillsNote(view: { a: Pick<CompareSideView, 'skill'>; b: Pick<CompareSideView, 'skill'> }): string | null {
  if (view.a.skill === view.b.skill) return null;
  return `A is a run of ${view.a.skill} and B a run of ${view.b.skill}: steps of two skills are aligned by position name only.`;
}

/**
 * Said beside a run's step count (the CLI's and the page's words) when steps of its log were not
 * compared, being inside one the other run answered whole (a fork past an iterate answers it with
 * its recorded result): without it an identical comparison reads 6 steps against 10. With the
 * steps that hold them known (`insideParents`), it names them — it was the parent the other run
 * answered whole, not these steps — and any of this run's edits among them (a fork point there is
 * not compared either). Null for none.
 */
export function insideAnsweredNote(side: Pick<CompareSideView, 'insideAnswered' | 'insideParents'>, other: 'A' | 'B'): string | null {
  const n = side.insideAnswered;
  if (!n) return null;
  const steps = plural(n, 'nested step');
  const parents = side.insideParents ?? [];
  if (!parents.length) return `+${steps} not compared: ${other} answered ${n === 1 ? 'it' : 'them'} whole from a recording`;
  const self = other === 'A' ? 'B' : 'A';
  const where = parents.map((p) => p.position);
  const named = where.length === 1 ? where[0] : `${where.slice(0, -1).join(', ')} and ${where[where.length - 1]}`;
  const edited = parents.flatMap((p) => p.edited);
  const edits = edited.length ? `, ${self}'s ${edited.length === 1 ? 'edit' : 'edits'} at ${edited.join(', ')} among them` : '';
  return `+${steps} of ${self} not compared${edits}: ${n === 1 ? 'it is' : 'they are'} inside ${named}, which ${other} answered whole from a recording`;
}

/** a run against the last completed run of its skill before it (`GET /api/compare?b=<id>`): what a failed run's page shows */
export const BaselineDivergenceView = z
  .object({ runId: z.string(), baselineRunId: z.string().nullable(), firstDivergence: CompareDivergenceView.nullable() })
  .strict();
export type BaselineDivergenceView = z.infer<typeof BaselineDivergenceView>;

// ---------------------------------------------------------------- regression over history

const RegressOutcome = z.object({ status: z.string(), output: json, error: json.nullable() }).strict();

export const RegressRunView = z
  .object({
    runId: z.string(),
    createdAt: ms,
    recorded: RegressOutcome,
    now: RegressOutcome,
    /** jsondiffpatch delta of the caller artifact (or of the error, when a side has none) */
    diff: json.nullable(),
    firstDivergence: CompareDivergenceView.nullable(),
  })
  .strict();
export type RegressRunView = z.infer<typeof RegressRunView>;

/** `stagecraft regress --json`, `POST /api/skills/<name>/regress` */
export const RegressView = z
  .object({
    skill: z.string(),
    /** the version whose postprocessor ran (with `unsaved`: the one the files were laid over) */
    version: z.string().nullable(),
    unsaved: z.boolean(),
    /** past runs with a finish artifact that were checked */
    checked: int,
    /** those whose caller artifact or status would change */
    changed: z.array(RegressRunView),
    skipped: z.array(z.object({ runId: z.string(), reason: z.string() }).strict()),
  })
  .strict();
export type RegressView = z.infer<typeof RegressView>;

/** the most past runs one regress checks through the API (`stagecraft regress --limit` on the store has no cap) */
export const MAX_REGRESS_LIMIT = 500;

export const RegressBody = z
  .object({
    version: versionRef.optional(),
    /** unsaved files (the editor's), laid over the version: `{"skill.md": "..."}` is enough */
    files: z.record(z.string(), z.string()).optional(),
    limit: z.number().int().min(1).max(MAX_REGRESS_LIMIT).optional(),
  })
  .strict();
export type RegressBody = z.infer<typeof RegressBody>;

// ---------------------------------------------------------------- export and import

export const RUN_EXPORT_FORMAT = 'stagecraft.run-export';
export const RUN_EXPORT_VERSION = 1;

const record = z.record(z.string(), json);

/**
 * `stagecraft export`, `GET /api/runs/<id>/export`: one run with what it ran. `hashes` are sha256 of
 * each part's canonical JSON (sorted keys); `sha256` is that of the whole file without it;
 * `skill.version` is the bundle hash of `skill.files`; each artifact carries the sha256 of its content.
 */
export const RunExportView = z
  .object({
    format: z.literal(RUN_EXPORT_FORMAT),
    formatVersion: int,
    exportedAt: ms,
    skill: z.object({ name: z.string(), version: z.string(), files: z.record(z.string(), z.string()) }).strict(),
    run: record,
    events: z.array(record),
    traces: z.array(record),
    artifacts: z.array(record),
    hashes: z.object({ run: z.string(), events: z.string(), traces: z.string(), artifacts: z.string() }).strict(),
    sha256: z.string(),
  })
  .strict();
export type RunExportView = z.infer<typeof RunExportView>;

/** `stagecraft import --json`, `POST /api/runs/import` */
export const ImportView = z
  .object({
    imported: z.array(
      z.object({ runId: z.string(), skill: z.string(), version: z.string(), status: z.enum(['imported', 'unchanged']) }).strict(),
    ),
  })
  .strict();
export type ImportView = z.infer<typeof ImportView>;
