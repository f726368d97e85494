/**
 * The error classes of Stagecraft: one class per failure kind, all under
 * `StagecraftError`, each with a stable snake_case `code`, the HTTP status an
 * API caller should see, and a message that says what happened, why, and what
 * to do.
 *
 * Owns: the vocabulary of failures. Does not: map errors to HTTP responses or
 * CLI exit codes (that happens in exactly one place each, in lib/server and the
 * CLI), and never throws strings or plain objects.
 */
import type { Json, JsonObject } from './json';
import { plural } from './plural';

export type ErrorDetails = JsonObject;

/** marks every StagecraftError, whichever copy of this module made it */
const ERROR_BRAND = Symbol.for('stagecraft.error');

export class StagecraftError extends Error {
  readonly code: string;
  readonly httpStatus: number;
  readonly details: ErrorDetails;
  constructor(code: string, message: string, opts: { httpStatus?: number; details?: ErrorDetails; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.httpStatus = opts.httpStatus ?? 500;
    this.details = opts.details ?? {};
    Object.defineProperty(this, ERROR_BRAND, { value: true });
  }

  /**
   * `x instanceof StagecraftError` holds for an error made by another copy of this module too: the
   * Next server bundles its start-up hook and its routes separately, and the store the hook opens
   * throws into the routes. The subclasses keep the usual prototype check.
   */
  static [Symbol.hasInstance](x: unknown): boolean {
    if (this !== StagecraftError) return Function.prototype[Symbol.hasInstance].call(this, x);
    return typeof x === 'object' && x !== null && (x as { [ERROR_BRAND]?: boolean })[ERROR_BRAND] === true;
  }
  toJSON(): JsonObject {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** One located finding in a skill.md (error or warning). */
export type Diagnostic = {
  severity: 'error' | 'warning';
  /** stable rule id, e.g. `unknown_key`, `unreachable_phase` */
  rule: string;
  message: string;
  file: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
  endLine?: number;
  endColumn?: number;
  /** frontmatter key path, e.g. `phases.draft.tools[1]` (empty for body findings) */
  path: string;
};

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}${d.path ? ` [${d.path}]` : ''}`;
}

export class SkillValidationError extends StagecraftError {
  readonly diagnostics: Diagnostic[];
  /** `rest`: where the errors past the first are listed (the CLI names `stagecraft validate`) */
  constructor(diagnostics: Diagnostic[], rest?: string) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    super(
      'skill_invalid',
      `skill.md has ${plural(errors.length, 'error')}` +
        (first ? `; first: ${formatDiagnostic(first)}` : '') +
        (rest && errors.length > 1 ? `\n${rest}` : ''),
      { httpStatus: 422, details: { diagnostics: diagnostics as unknown as Json } },
    );
    this.diagnostics = diagnostics;
  }
}

/** Where in a run something happened; every run-time error carries what applies. */
export type RunLocation = {
  phase?: string;
  stage?: string;
  rung?: string;
  capability?: string;
  step?: number;
  stepType?: string;
  /** a step's position in the run (`__post__/2`, `draft/pre/0`) and its on_error */
  position?: string;
  onError?: 'fail' | 'skip' | 'empty';
  round?: number;
  op?: string;
};

function locDetails(loc: RunLocation): ErrorDetails {
  const out: ErrorDetails = {};
  for (const [k, v] of Object.entries(loc)) if (v !== undefined) out[k] = v as Json;
  return out;
}

/**
 * The process that launched a code worker (the app's sandbox spawner) died during the step and took
 * the worker with it. Not the step's failure (on_error does not apply): the run is left resumable
 * from its last commit, and the app resumes it.
 */
export class SandboxHostLostError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('sandbox_host_lost', message, { httpStatus: 503, details });
  }
}

/** A processor step with `on_error: fail` failed, or the caller contract was not met. No automatic resume. */
export class WorkflowAbortedError extends StagecraftError {
  readonly location: RunLocation;
  constructor(message: string, location: RunLocation, cause?: unknown) {
    super('workflow_aborted', message, { httpStatus: 422, details: locDetails(location), cause });
    this.location = location;
  }
}

/** A capability stage raised; the turn ends and the run fails. */
export class StageCrashedError extends StagecraftError {
  readonly location: RunLocation;
  constructor(message: string, location: RunLocation) {
    super('stage_crashed', message, { httpStatus: 500, details: locDetails(location) });
    this.location = location;
  }
}

/** An op or effect was used without being permitted by `permissions`. */
export class GrantRefusedError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('grant_refused', message, { httpStatus: 403, details });
  }
}

/** A code step or user capability ran past its timeout and was killed. */
export class StepTimeoutError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('step_timeout', message, { httpStatus: 504, details });
  }
}

/** User code (a python/node step or a module capability) raised, exited or produced non-JSON. */
export class CodeStepError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('code_failed', message, { httpStatus: 422, details });
  }
}

/** A processor step or tool call failed (bad path, invalid value, op error). */
export class StepFailedError extends StagecraftError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: 422, details });
  }
}

export class PayloadTooLargeError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('payload_too_large', message, { httpStatus: 413, details });
  }
}

/** A step's output, or the value a chain would hold after it, is over MAX_VALUE_CHARS: that step's failure (on_error applies). */
export class ValueTooLargeError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('value_too_large', message, { httpStatus: 413, details });
  }
}

/**
 * The store refused what a run had to record for what it is — a value it cannot serialize or
 * keep, not a store that is away: recording it again would fail the same way. The run fails,
 * recorded (never left running, never retried by a resume).
 */
export class RecordRefusedError extends StagecraftError {
  constructor(runId: string, cause: unknown) {
    super(
      'record_refused',
      `Run ${runId} produced something the store cannot record: ${cause instanceof Error ? cause.message : String(cause)}. ` +
        'Recording it again would fail the same way, so the run fails here. Keep large or binary data in the workspace, not in step outputs.',
      { httpStatus: 422, details: { runId, ...(typeof (cause as { code?: unknown })?.code === 'string' ? { cause: (cause as { code: string }).code } : {}) }, cause },
    );
  }
}

/** Codes of store failures caused by the value written, not by the store: the same write fails every time. */
const UNRECORDABLE_CODES = new Set(['store_value_unsupported', 'value_too_large']);

/** Whether a failed commit failed for what it carried (deterministic), not for where it went. */
export function isUnrecordableValue(e: unknown): boolean {
  return UNRECORDABLE_CODES.has(String((e as { code?: unknown } | null)?.code));
}

/** A JSON Schema `pattern` the linear-time engine (RE2) cannot express: a backreference, lookaround, … */
export class PatternUnsupportedError extends StagecraftError {
  readonly pattern: string;
  constructor(pattern: string, reason: string) {
    super(
      'pattern_unsupported',
      `The pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${reason}. ` +
        'Patterns are matched by RE2, so that no input can stall a run or the server; rewrite it in RE2 syntax (no backreferences, no lookahead or lookbehind).',
      { httpStatus: 422, details: { pattern } },
    );
    this.pattern = pattern;
  }
}

/** What a DeterminismError tells its reader to do: the run is left resumable, as it was. */
export const skillChangedAdvice = (runId: string): string =>
  `The skill changed after this run was recorded: restore the skill.md it ran (its text is kept with the run) and resume it, or abort it (\`stagecraft abort ${runId}\`) and start a new run.`;

/** A recorded step does not match the skill at the same position (resume/replay). */
export class DeterminismError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('determinism_violation', message, { httpStatus: 409, details });
  }

  /**
   * A recorded step or stage (`rec`) the skill no longer has as it was recorded: `nowHas` says what
   * the skill has instead ("… there", "no step there", …), `current` its definition, if any.
   */
  static recorded(runId: string, what: 'step' | 'stage', rec: { position: string; definition: Json; seq: number }, nowHas: string, current: Json | null): DeterminismError {
    return new DeterminismError(
      `the recorded ${what} at ${rec.position} no longer matches the skill: it was recorded as ${JSON.stringify(rec.definition)} and the skill now has ${nowHas}. ${skillChangedAdvice(runId)}`,
      { position: rec.position, recorded: rec.definition, current, seq: rec.seq },
    );
  }
}

/**
 * A replay cannot go on from here: the step it reached cannot be answered from the recording (a
 * model request that changed, a model turn or a world call the recorded run never made), and making
 * one up would hide the divergence. The replay run ends aborted with this error; `position` says where.
 */
export class ReplayDivergedError extends StagecraftError {
  constructor(
    readonly reason: 'model_request_changed' | 'model_turn_unrecorded' | 'tool_call_unrecorded',
    message: string,
    details: ErrorDetails & { position: string },
  ) {
    super('replay_diverged', message, { httpStatus: 409, details: { reason, ...details } });
  }
}

/**
 * A fork point that cannot be forked as asked: a position the run (or the skill version) does not
 * reach, an edit that does not fit its schema, a step before the point that changed since the parent
 * recorded it (it cannot be answered from the recording, and running it would not be a fork).
 */
export class ForkPointError extends StagecraftError {
  constructor(code: 'fork_point_unknown' | 'fork_edit_invalid' | 'fork_prefix_changed', message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: code === 'fork_prefix_changed' ? 409 : 422, details });
  }
}

/** The model did not produce a valid finish artifact in time. */
export class PhaseFailedError extends StagecraftError {
  constructor(code: 'max_rounds_exceeded' | 'output_invalid', message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: 422, details });
  }
}

/** A model adapter failed: the endpoint errored, or a script ran out / is elsewhere. */
export class ModelError extends StagecraftError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: 502, details });
  }
}

export class RunNotFoundError extends StagecraftError {
  constructor(runId: string) {
    super('run_not_found', `No run with id ${runId}. List runs with \`stagecraft runs\` or check the id.`, {
      httpStatus: 404,
      details: { runId },
    });
  }
}

/** A seq past a run's log (or before its start): the inspector asked for an event it does not have yet. */
export class EventNotFoundError extends StagecraftError {
  constructor(runId: string, seq: number, lastSeq: number) {
    super('event_not_found', `Run ${runId} has ${plural(lastSeq, 'event')} so far; there is no event ${seq}. Ask for a seq from 0 (before the first event) to ${lastSeq}.`, {
      httpStatus: 404,
      details: { runId, seq, lastSeq },
    });
  }
}

/** A value reference (`{ seq, path }`) that names nothing in the run. */
export class ValueNotFoundError extends StagecraftError {
  constructor(runId: string, seq: number, path: string) {
    super('value_not_found', `Run ${runId} has no value at ${path} (seq ${seq}). Use a ref from a state or item view as it was given: \`state/…\`, \`item/…\` or \`event/…\` at the seq it names.`, {
      httpStatus: 404,
      details: { runId, seq, path },
    });
  }
}

export class RunNotResumableError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('run_not_resumable', `Run ${runId} cannot be resumed: ${why}`, { httpStatus: 409, details: { runId } });
  }
}

/** The run has already ended: there is nothing left to abort. */
export class RunFinishedError extends StagecraftError {
  constructor(runId: string, status: string) {
    super('run_finished', `Run ${runId} has already ended (${status}); there is nothing to abort.`, { httpStatus: 409, details: { runId, status } });
  }
}

/** Another process is driving this run (it holds the claim or committed the same seq first). */
export class RunClaimedError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('run_claimed', `Run ${runId} is being driven by another process: ${why}`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/**
 * The driver was asked to let go of the run (a worker stopping, a lease lost): it stopped before its
 * next step, with everything before it committed. Not a failure: the run stays resumable and another
 * driver picks it up where it stopped.
 */
export class RunReleasedError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('run_released', `Run ${runId} was let go by this process before its next step (${why}); it resumes where it stopped.`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/**
 * A user asked for the run to be aborted while it was driven (StorePort.requestAbort): the step in
 * flight is cut short (its code worker killed, its model call aborted, its wait ended) and the
 * run ends aborted on request. No step policy absorbs it: it is not the step's failure.
 */
export class AbortRequestedError extends StagecraftError {
  constructor(runId: string, reason: string) {
    super('abort_requested', `Run ${runId} was asked to abort (${reason}); it stops before anything else runs.`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/** A caller-chosen run id that is already taken. */
export class RunExistsError extends StagecraftError {
  constructor(runId: string) {
    super('run_exists', `A run with id ${runId} already exists; run ids must be new (resume it with \`stagecraft resume ${runId}\`).`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/**
 * The store failed to record a commit. The run stops where it is — its
 * snapshot still points at the last committed state — and can be resumed once
 * the store is back.
 */
export class StoreWriteError extends StagecraftError {
  constructor(runId: string, cause: unknown) {
    super(
      'store_write_failed',
      `Could not record run ${runId}: ${cause instanceof Error ? cause.message : String(cause)}. Nothing after the last commit was recorded; resume the run when the store is reachable.`,
      { httpStatus: 503, details: { runId }, cause },
    );
  }
}

/** Usage errors of the CLI / bad request arguments. */
export class UsageError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('usage', message, { httpStatus: 400, details });
  }
}

/** The store cannot be opened (embedded data dir held by another process, bad URL, ...). */
export class StoreUnavailableError extends StagecraftError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: 503, details });
  }
}

export function errorToJson(e: unknown): { code: string; message: string } & JsonObject {
  if (e instanceof StagecraftError) return { ...e.details, code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'internal', message: e.message };
  return { code: 'internal', message: String(e) };
}

// ---------------------------------------------------------------- skills and their versions

/** the longest skill name there can be (SKILL_NAME_PATTERN) */
const LONGEST_SKILL_NAME = 64;

/** a looked-up name as a message quotes it: one longer than any skill name is cut, with its length */
function quotedName(name: string): string {
  if (name.length <= LONGEST_SKILL_NAME) return JSON.stringify(name);
  return `${JSON.stringify(`${name.slice(0, LONGEST_SKILL_NAME)}…`)} (${name.length} characters: no skill name is longer than ${LONGEST_SKILL_NAME})`;
}

export class SkillNotFoundError extends StagecraftError {
  /** `how`: where to find the names (the API's words by default; the CLI gives its own) */
  constructor(name: string, how = "List the skills (GET /api/skills, or the app's home page) and check the name.") {
    super('skill_not_found', `No skill named ${quotedName(name)}. ${how}`, {
      httpStatus: 404,
      details: { skill: name },
    });
  }
}

/** A new skill (or a rename) would take a name a live skill has. */
export class SkillExistsError extends StagecraftError {
  constructor(name: string) {
    super('skill_exists', `A skill named ${JSON.stringify(name)} already exists: choose another name, or open that skill.`, {
      httpStatus: 409,
      details: { skill: name },
    });
  }
}

export class VersionNotFoundError extends StagecraftError {
  /** what was wrong with the hash (kept out of the JSON: the message says it) */
  readonly why: string;
  /** `how`: where to find the hashes (the API's words by default; the CLI gives its own) */
  constructor(skill: string, hash: string, why = 'no version of it has that hash', how = `List its versions (GET /api/skills/${skill}/versions) and use one of their hashes.`) {
    super('version_not_found', `Skill ${JSON.stringify(skill)}: ${why} (${hash}). ${how}`, {
      httpStatus: 404,
      details: { skill, version: hash },
    });
    this.why = why;
  }
}

/**
 * A replay or fork given a folder (`--skill DIR`) that holds another skill than the run's: its steps
 * would be matched against a different skill's, so nothing would say anything true about the run.
 */
export class SkillMismatchError extends StagecraftError {
  /**
   * `own`: the folder is the run's own (no folder was given: the run was made from it, and it has
   * since been given another skill's skill.md) — the way out is the version the run recorded (`hash`,
   * null when none is on record any more) or another of its skill's versions, not leaving a folder
   * out; `how`: that said in the caller's words, e.g. the CLI's flags
   */
  constructor(runId: string, runSkill: string, folder: string, folderSkill: string, own?: { hash: string | null; how?: string }) {
    const names = `${JSON.stringify(folderSkill)} (its skill.md's name): a run is replayed or forked with a version of its own skill. `;
    const skill = JSON.stringify(runSkill);
    const wayOut = own?.hash
      ? `Use the version the run recorded (${own.hash.slice(0, 12)}), or give the folder back a skill.md of ${skill}.`
      : `Use one of ${skill}'s saved versions, or give the folder back a skill.md of ${skill}.`;
    super(
      'skill_mismatch',
      own
        ? `Run ${runId} is of skill ${skill}, and its folder ${folder} now holds skill ${names}` + (own.how ?? wayOut)
        : `Run ${runId} is of skill ${skill}, and ${folder} holds skill ${names}` +
            `Pass a folder of ${skill} (\`stagecraft pull ${runSkill} DIR\` writes one), or leave --skill out to use its latest version.`,
      {
        httpStatus: 422,
        details: { runId, skill: runSkill, folder, folderSkill, ...(own ? { ownFolder: true, ...(own.hash ? { recordedVersion: own.hash } : {}) } : {}) },
      },
    );
  }
}

export class BundleInvalidError extends StagecraftError {
  readonly problems: { code: string; path: string; message: string }[];
  readonly doing: 'saved' | 'run';
  /** `doing`: what the bundle was given for — saved (push, the app) or run (`stagecraft run DIR`); `rest`: where the problems past the first are listed (the CLI names `stagecraft validate`) */
  constructor(problems: { code: string; path: string; message: string }[], doing: 'saved' | 'run' = 'saved', rest?: string) {
    super(
      'bundle_invalid',
      `The bundle cannot be ${doing}: ${problems[0]?.message ?? 'it is invalid'}${problems.length > 1 ? ` (and ${plural(problems.length - 1, 'more problem')})` : ''}` +
        (rest && problems.length > 1 ? `\n${rest}` : ''),
      { httpStatus: 422, details: { problems } },
    );
    this.problems = problems;
    this.doing = doing;
  }
}

/** A run's input that breaks the entry phase's input contract; `errors` locates each by JSON pointer. */
export class InputInvalidError extends StagecraftError {
  constructor(phase: string, errors: { pointer: string; message: string }[]) {
    super(
      'input_invalid',
      `The input does not satisfy the input contract of the entry phase ${phase}: ${errors
        .slice(0, 5)
        .map((e) => `${e.pointer || '(the input)'} ${e.message}`)
        .join('; ')}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ''}. Fix the input, or the phase's input_schema.`,
      { httpStatus: 422, details: { phase, errors } },
    );
  }
}

// ---------------------------------------------------------------- replay, export and import

/** A run that has not ended yet, asked for what only an ended run has (a replay, a fork, an export). */
export class RunStillRunningError extends StagecraftError {
  constructor(runId: string) {
    super('run_running', `Run ${runId} is still running: it can be replayed, forked or exported once it has ended (resume it, or abort it; compare reads it as it is now).`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/** A run export file that cannot be imported as it is: not an export, a newer format, a hash that does not match. */
export class ExportInvalidError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('export_invalid', message, { httpStatus: 422, details });
  }
}

/** An import that would overwrite a different run of the same id (nothing is changed). */
export class ImportConflictError extends StagecraftError {
  constructor(runId: string, why: string) {
    super('import_conflict', `Run ${runId} exists here and is not the run in the file (${why}); nothing was imported. A run is never overwritten: import the file into another store, or keep the run that is here.`, {
      httpStatus: 409,
      details: { runId },
    });
  }
}

/** Code of an imported skill version would run without a sandbox (replay, fork, regress). */
export class UntrustedCodeError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('untrusted_code', message, { httpStatus: 403, details });
  }
}
