/**
 * Turns what a worker reported (a reply, a timeout, an exit) into the call's
 * JSON result or a Stagecraft error whose message says what happened, where in
 * the user's code, and what to do.
 *
 * Owns: the wording and `details` of sandbox failures. Invariant: every
 * failure is a `CodeStepError`, a `StepTimeoutError`, (for a reply too big
 * to buffer) a `PayloadTooLargeError`, or (the worker died with the spawner
 * that launched it) a `SandboxHostLostError`, and carries the tails of the
 * user's stdout/stderr for that call.
 *
 * Does not: talk to processes or decide whether a worker is reused.
 */
import { constants as osConstants } from 'node:os';
import { CodeStepError, PayloadTooLargeError, SandboxHostLostError, StepTimeoutError, type ErrorDetails } from '../kernel/errors';
import type { Json } from '../kernel/json';
import { MAX_REPLY_CHARS, type CallOutcome, type OutputTails, type WorkerReply } from './worker';
import type { Isolation } from './isolation';
import type { Language } from './runtime';

export type CallContext = {
  language: Language;
  modulePath: string;
  exportName: string;
  timeoutMs: number;
  memoryLimitMb: number;
  /** the worker's memory cgroup OOM-killed a process of it during the call */
  isOomKilled?: boolean;
  /**
   * how the worker was isolated (the sandbox always says): with none, an exit code over 128 is the
   * code's own, not bubblewrap's way of passing on a signal. A context that does not say (a test's)
   * is read as bubblewrap's.
   */
  isolation?: Isolation['kind'];
};

/** Lines of a traceback kept in the message itself (all of it is in `details.traceback`). */
const MESSAGE_TRACEBACK_LINES = 30;
/** Characters of stderr quoted in the message itself. */
const MESSAGE_STDERR_CHARS = 1500;

const NODE_OOM = /JavaScript heap out of memory|Reached heap limit|Allocation failed/;
const PYTHON_OOM = /MemoryError|Cannot allocate memory|out of memory/;

/** The JSON value of a successful call; throws the right error for anything else. */
/** The call's value, or its error; `isOomKilled` joins the context only for an error (a result needs no copy of it). */
export function resultOf(outcome: CallOutcome, ctx: CallContext, isOomKilled = false): Json {
  if (outcome.kind === 'reply' && outcome.reply.ok) return outcome.reply.value;
  throw errorFor(outcome, isOomKilled ? { ...ctx, isOomKilled } : ctx);
}

/** Whether the worker that produced this outcome must be replaced before the next call. */
export function isWorkerSpent(outcome: CallOutcome): boolean {
  return outcome.kind !== 'reply' || (!outcome.reply.ok && outcome.reply.kind === 'memory');
}

export function errorFor(
  outcome: CallOutcome,
  ctx: CallContext,
): CodeStepError | StepTimeoutError | PayloadTooLargeError | SandboxHostLostError {
  const fn = describe(ctx);
  const base = baseDetails(ctx, outcome.output);
  if (outcome.kind === 'host_lost') return hostLostError(fn, outcome.why, base);
  if (outcome.kind === 'timeout') {
    return new StepTimeoutError(
      `${fn} did not finish within ${ctx.timeoutMs} ms and was killed. ` +
        `Raise the step's timeout_ms if it needs longer, or make the function faster.` +
        stderrNote(outcome.output),
      { ...base, timeoutMs: ctx.timeoutMs },
    );
  }
  if (outcome.kind === 'too_large') {
    return new PayloadTooLargeError(
      `${fn} returned more than ${MAX_REPLY_CHARS / (1024 * 1024)} MB of JSON; its worker was stopped. ` +
        `Return a smaller value, or write large data to the workspace and return its path.`,
      { ...base, maxReplyChars: MAX_REPLY_CHARS },
    );
  }
  if (outcome.kind === 'protocol') {
    return new CodeStepError(
      `The ${ctx.language} worker running ${fn} wrote ${outcome.why}, and was stopped. ` +
        `Its reply channel (fd 4) is reserved for results: write output to stdout or stderr, and return the value.` +
        stderrNote(outcome.output),
      { ...base, protocol: outcome.why },
    );
  }
  if (outcome.kind === 'exited') {
    const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code}`;
    const oom = ctx.language === 'node' ? NODE_OOM : PYTHON_OOM;
    if (ctx.isOomKilled || oom.test(outcome.output.stderr)) return memoryError(fn, ctx, base);
    return new CodeStepError(
      `The ${ctx.language} worker ${how} while running ${fn}. ` +
        `User code must return a value, not exit the process.` +
        signalNote(outcome.code, outcome.signal, ctx.isolation) +
        stderrNote(outcome.output),
      { ...base, exitCode: outcome.code, signal: outcome.signal },
    );
  }
  const reply = outcome.reply as Extract<WorkerReply, { ok: false }>;
  switch (reply.kind) {
    case 'memory':
      return memoryError(fn, ctx, base);
    case 'module_missing':
      return new CodeStepError(
        `${ctx.language} module ${ctx.modulePath} does not exist (looked for function ${ctx.exportName}). ` +
          `Check the step's module path; it is relative to the skill bundle.`,
        base,
      );
    case 'export_missing': {
      const available = reply.available ?? [];
      const list = available.length ? `Functions it defines: ${available.join(', ')}.` : 'It defines no functions.';
      const hint = ctx.language === 'node' ? ' (is it exported?)' : '';
      return new CodeStepError(
        `${ctx.language} module ${ctx.modulePath} has no function ${ctx.exportName}${hint}. ${list}`,
        { ...base, available },
      );
    }
    case 'not_json':
      return new CodeStepError(
        `${fn} returned a value that is not JSON-serialisable: ${reply.message} (at ${reply.where ?? '$'}). ` +
          `Return only objects/dicts, arrays/lists, strings, finite numbers, booleans and null/None.`,
        { ...base, where: reply.where ?? '$' },
      );
    case 'import_failed':
    case 'raised': {
      const verb = reply.kind === 'raised' ? 'raised' : 'failed to import:';
      const subject = reply.kind === 'raised' ? fn : `${ctx.language} module ${ctx.modulePath}`;
      const at = reply.where ? ` (at ${reply.where})` : '';
      return new CodeStepError(
        `${subject} ${verb} ${reply.errorType ?? 'Error'}: ${reply.message ?? ''}${at}` +
          tracebackNote(reply.traceback ?? null) +
          stderrNote(outcome.output),
        {
          ...base,
          errorType: reply.errorType ?? 'Error',
          errorMessage: reply.message ?? '',
          traceback: reply.traceback ?? null,
          where: reply.where ?? null,
        },
      );
    }
  }
}

/** The worker died with what launched it: not the code's failure; the run stays resumable (and the app resumes it). */
export function hostLostError(fn: string, why: string, details: ErrorDetails): SandboxHostLostError {
  return new SandboxHostLostError(`The worker running ${fn} was lost: ${why}. The step did not fail by itself; it is run again when the run resumes.`, details);
}

function memoryError(fn: string, ctx: CallContext, base: ErrorDetails): CodeStepError {
  return new CodeStepError(
    `${fn} hit the sandbox memory limit of ${ctx.memoryLimitMb} MB and its worker was stopped. ` +
      `The limit counts the worker and every process it started, and what they keep in /tmp and /dev/shm. ` +
      `Use less memory (process the data in chunks, write large data to the workspace) or raise the sandbox memory limit.`,
    { ...base, memoryLimitMb: ctx.memoryLimitMb },
  );
}

function describe(ctx: CallContext): string {
  return `${ctx.language} function ${ctx.exportName} in ${ctx.modulePath}`;
}

function baseDetails(ctx: CallContext, output: OutputTails): ErrorDetails {
  return {
    language: ctx.language,
    module: ctx.modulePath,
    function: ctx.exportName,
    stdoutTail: output.stdout,
    stderrTail: output.stderr,
  };
}

/**
 * What an exit code over 128 says of a worker that had no signal reported: bubblewrap (the launcher
 * of an isolated worker) exits with 128 + the signal that killed its child, so `137` is the SIGKILL
 * (the kernel's OOM killer, a `kill -9`, the code's own) that the bare code would hide. A worker
 * that ran without isolation exited with its own code: nothing to add.
 */
function signalNote(code: number | null, signal: NodeJS.Signals | null, isolation: Isolation['kind'] | undefined): string {
  if (isolation === 'none' || signal || code === null || code <= 128) return '';
  const name = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? ` Code ${code} is how a worker killed by ${name} (signal ${code - 128}) exits under bubblewrap.` : '';
}

function tracebackNote(traceback: string | null): string {
  if (!traceback) return '';
  const lines = traceback.trimEnd().split('\n');
  const kept = lines.length > MESSAGE_TRACEBACK_LINES ? ['…', ...lines.slice(-MESSAGE_TRACEBACK_LINES)] : lines;
  return `\n${kept.join('\n')}`;
}

function stderrNote(output: OutputTails): string {
  const tail = output.stderr.trim();
  if (!tail) return '';
  return `\nLast stderr:\n${tail.length > MESSAGE_STDERR_CHARS ? `…${tail.slice(-MESSAGE_STDERR_CHARS)}` : tail}`;
}
