/**
 * Errors of a run as it is driven: where in a run something happened (`RunLocation`), and the
 * failures of its steps, stages, phases and model calls — a refused grant, a timeout, code that
 * raised, a value too large, a sandbox host lost. Re-exported by `lib/kernel/errors`.
 *
 * Owns: how a location becomes an error's details. Does not: decide what a failure does to the run
 * (on_error, resumability: the runner does).
 */
import type { Json } from '../json';
import { StagecraftError, type ErrorDetails } from './base';

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

/** The model did not produce a valid finish artifact in time. */
export class PhaseFailedError extends StagecraftError {
  constructor(code: 'max_rounds_exceeded' | 'output_invalid', message: string, details: ErrorDetails = {}) {
    super(code, message, { httpStatus: 422, details });
  }
}

/** A model adapter failed: the endpoint errored, or a script ran out / is elsewhere. */
export class ModelError extends StagecraftError {
  constructor(code: string, message: string, details: ErrorDetails = {}, httpStatus = 502) {
    super(code, message, { httpStatus, details });
  }
}

/**
 * A model script (a bundle's model.yaml) that is not one, located: the bundle's own mistake, found
 * before any turn is served — a 422 as an invalid skill is, not a model endpoint that failed (502).
 */
export class ModelScriptInvalidError extends ModelError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('model_script_invalid', message, details, 422);
  }
}
