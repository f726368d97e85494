/**
 * One error, shown once: its code, a one-line message, its stack (a JS stack or
 * a Python traceback) and where in the bundle it was raised — with the paths
 * of the bundle copy a run executes from shown relative to the bundle
 * (`caps.mjs:12:5`, not `/var/lib/stagecraft/bundles/ab12…/caps.mjs:12:5`).
 *
 * The kernel records errors as it meets them: a stage's `{ message, stack }`,
 * a step's `errorToJson` (a code step's message carries its traceback and the
 * stderr tail as well, for the CLI; `details.traceback` holds the traceback
 * alone). This reads any of them into the same shape, the stderr the code
 * printed last kept apart (`stderr`) so the run page can show it.
 *
 * Owns: that reading. Does not: decide which error matters (report.ts does).
 */
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';

export type ErrorInfo = {
  code: string | null;
  /** the first line of the message: what happened */
  message: string;
  /** the stack or traceback, bundle paths relative; null when the error has none */
  stack: string | null;
  /** the bundle file and line it was raised at, when known */
  where: { file: string; line: number } | null;
  /** what the code printed on stderr last before it raised (a code step's or a user capability's), when it printed any */
  stderr?: string;
};

/** how the sandbox appends a failed call's stderr tail to its message (lib/sandbox/outcomes.ts) */
const STDERR_MARK = '\nLast stderr:\n';

/** the stderr a recorded error carries: a code step's `stderrTail`, else the tail its message ends with */
function stderrOf(e: JsonObject, message: string, roots: readonly string[]): string | null {
  if (typeof e.stderrTail === 'string' && e.stderrTail.trim()) return relativeToBundle(e.stderrTail.replace(/\n$/, ''), roots);
  const at = message.lastIndexOf(STDERR_MARK);
  return at >= 0 && message.slice(at + STDERR_MARK.length).trim() ? message.slice(at + STDERR_MARK.length) : null;
}

/** Paths under any of `roots` (the bundle folders a run executed from) shown relative to it. */
export function relativeToBundle(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of roots) {
    if (!root || root === '/') continue;
    const base = root.endsWith('/') ? root : `${root}/`;
    out = out.split(`file://${base}`).join('').split(base).join('');
  }
  return out;
}

/**
 * A stream a code step printed, as its error's stderr is shown: bundle paths relative, its last newline
 * off; null when it printed nothing there. The inspector's step detail and `stagecraft events` both show it so.
 */
export function printedText(text: unknown, roots: readonly string[]): string | null {
  return typeof text === 'string' && text ? relativeToBundle(text.replace(/\n$/, ''), roots) : null;
}

/** an error message's first line (not its traceback), with the bundle paths in it relative (relativeToBundle) */
export function errorLineOf(message: unknown, roots: readonly string[]): string {
  return relativeToBundle(String(message ?? '').split('\n')[0], roots);
}

/** An error as recorded (any JSON: a message, a stack, details), every string in it with the paths under `roots` relative. */
export function relativeErrorValue(value: Json, roots: readonly string[]): Json {
  if (typeof value === 'string') return relativeToBundle(value, roots);
  if (Array.isArray(value)) return value.map((v) => relativeErrorValue(v, roots));
  if (!isJsonObject(value)) return value;
  // fromEntries, never `out[k] = …`: for a `__proto__` key (JSON.parse makes one) that sets the prototype, and the key is lost
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relativeErrorValue(v, roots)])) as JsonObject;
}

const FRAME = /(?:\(|\s|^)([^\s():]+\.(?:mjs|cjs|js|ts|mts|py)):(\d+)(?::\d+)?/;

/** the first frame of a stack that names a file of the bundle (a relative path once roots are cut) */
function whereIn(stack: string | null, whereHint: string | null): ErrorInfo['where'] {
  for (const text of [whereHint, stack]) {
    if (!text) continue;
    for (const line of text.split('\n')) {
      const py = /File "([^"]+)", line (\d+)/.exec(line);
      const m = py ?? FRAME.exec(line);
      if (m && !m[1].startsWith('/') && !m[1].startsWith('node:')) return { file: m[1], line: Number(m[2]) };
    }
  }
  return null;
}

/** Reads a recorded error (a stage's, a step's, a run's) into one ErrorInfo. */
export function errorInfo(recorded: Json | undefined, roots: readonly string[]): ErrorInfo | null {
  if (!isJsonObject(recorded)) return typeof recorded === 'string' ? { code: null, message: recorded, stack: null, where: null } : null;
  const e: JsonObject = recorded;
  const raw = typeof e.message === 'string' ? relativeToBundle(e.message, roots) : 'failed';
  const traceback = typeof e.traceback === 'string' ? e.traceback : typeof e.stack === 'string' ? e.stack : null;
  // a code step's message repeats its traceback and stderr for the CLI: the first line is what happened
  const message = raw.split('\n')[0];
  let stack = traceback ? relativeToBundle(traceback, roots) : null;
  // a JS stack opens with the message it was thrown with: it is shown once, above
  if (stack && stack.split('\n')[0].endsWith(message)) stack = stack.split('\n').slice(1).join('\n') || null;
  const hint = typeof e.where === 'string' ? relativeToBundle(e.where, roots) : null;
  const stderr = stderrOf(e, raw, roots);
  return {
    code: typeof e.code === 'string' ? e.code : null,
    message,
    stack: stack && stack !== message ? stack : null,
    where: whereIn(stack, hint),
    ...(stderr ? { stderr } : {}),
  };
}
