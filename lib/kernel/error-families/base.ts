/**
 * The base of Stagecraft's error classes (re-exported by `lib/kernel/errors`, the path to import
 * from): `StagecraftError` — a stable snake_case `code`, the HTTP status an API caller should see,
 * details, and a message that says what happened, why and what to do — the caller's plain mistake
 * (`UsageError`; `SettingsError` when it is in the environment's settings), and an error as JSON.
 *
 * Owns: the brand that makes `instanceof StagecraftError` hold across copies of the module. Does
 * not: name failure kinds (the other error-families modules do), or map errors to HTTP or exit codes.
 */
import type { JsonObject } from '../json';

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

/** Usage errors of the CLI / bad request arguments. */
export class UsageError extends StagecraftError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('usage', message, { httpStatus: 400, details });
  }
}

/**
 * Settings of the environment a process cannot use, all of them at once (`STAGECRAFT_WORKSPACE_MAX_BYTES=lots
 * stagecraft worker`): the caller's mistake as a usage error is (exit 2, 400), but not in the command line,
 * so the CLI prints the problems alone, one a line, and not the command's usage.
 */
export class SettingsError extends UsageError {
  readonly problems: string[];
  /** one setting's problem (a reader's: `STAGECRAFT_SANDBOX="bogus": use off, auto …`), or each of several */
  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'), { problems: list });
    this.problems = list;
  }
}

export function errorToJson(e: unknown): { code: string; message: string } & JsonObject {
  if (e instanceof StagecraftError) return { ...e.details, code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'internal', message: e.message };
  return { code: 'internal', message: String(e) };
}
