/**
 * Errors of checking recorded identity and moving runs: a recorded step the skill no longer has
 * (determinism), a replay that cannot go on, a fork point that cannot be forked, a run still
 * running, an export file or import that does not fit, imported code not trusted. Re-exported by
 * `lib/kernel/errors`.
 *
 * Owns: what these tell their reader to do (`skillChangedAdvice`). Does not: compare anything.
 */
import type { Json } from '../json';
import { StagecraftError, type ErrorDetails } from './base';

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
