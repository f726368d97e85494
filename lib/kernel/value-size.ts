/**
 * How large a value is once written as JSON, measured without writing it: a
 * step's output and a chain's current value are capped at MAX_VALUE_CHARS (the
 * same 16 MB a code step's reply channel allows), and the journal keeps a
 * commit unit's size in bounds (journal.ts). A value past the cap is refused
 * where it is made, as that step's failure, long before serializing it could
 * exhaust the process ("Invalid string length").
 *
 * Owns: `jsonChars` — exactly `JSON.stringify(v).length` for a JSON value,
 * or some number past `limit` as soon as the count passes it, so a huge value
 * costs no more to refuse than the cap itself. Objects measured whole are
 * remembered (by identity, in a WeakMap): a value is measured once however
 * many records carry it. Does not: decide what happens to a value too large
 * (processors.ts, step.ts, journal.ts do).
 */
import { ValueTooLargeError } from './errors';

/** the largest output a step may return, and the largest value a chain may hold: JSON characters */
export const MAX_VALUE_CHARS = 16 * 1024 * 1024;

/** objects measured whole, by identity; values are never changed once a step returned them */
const MEASURED = new WeakMap<object, number>();
/** below this, measuring again is cheaper than remembering */
const REMEMBER_FROM_CHARS = 4096;

// a character JSON.stringify writes as more than itself: a quote, a backslash, a control
// character, or half of a surrogate pair (a lone one is escaped; a pair is not, but is rare)
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringChars(s: string, limit: number): number {
  if (s.length + 2 > limit || !NEEDS_ESCAPE.test(s)) return s.length + 2;
  return JSON.stringify(s).length;
}

/** stringChars of an object's key, remembered: the same few keys recur in every value measured */
const KEY_CHARS = new Map<string, number>();
const MAX_KEY_CHARS = 10_000;
function keyChars(k: string): number {
  let n = KEY_CHARS.get(k);
  if (n === undefined) {
    n = stringChars(k, Infinity);
    if (KEY_CHARS.size < MAX_KEY_CHARS) KEY_CHARS.set(k, n);
  }
  return n;
}

/**
 * `JSON.stringify(v).length` for a JSON value (undefined members are skipped as JSON does), or
 * some number greater than `limit` once the count passes it.
 */
export function jsonChars(v: unknown, limit = Infinity): number {
  switch (typeof v) {
    case 'string':
      return stringChars(v, limit);
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'object':
      break;
    default:
      return 4; // undefined at the top (JSON.stringify gives no text; the records write null)
  }
  if (v === null) return 4;
  const known = MEASURED.get(v);
  if (known !== undefined) return known;
  let n = 2;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && n <= limit; i++) {
      const x = v[i];
      n += (i ? 1 : 0) + (x === undefined || typeof x === 'function' ? 4 : jsonChars(x, limit - n));
    }
  } else {
    let first = true;
    for (const k in v) {
      if (n > limit) break;
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined || typeof x === 'function') continue;
      n += (first ? 0 : 1) + keyChars(k) + 1 + jsonChars(x, limit - n);
      first = false;
    }
  }
  if (n <= limit && n >= REMEMBER_FROM_CHARS) MEASURED.set(v, n);
  return n;
}

export const formatChars = (n: number): string => (n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} kB` : `${n} characters`);

/**
 * Upper bounds of jsonChars for values built by merging (a chain's value after each step): the
 * bound of the value before plus the size of what was merged in, so that a chain does not measure
 * its whole value at every step; measured exactly only when the bound passes the cap.
 */
const BOUNDS = new WeakMap<object, number>();

/** A size of `v` already known (an upper bound, or its measure), without measuring: undefined when none is. */
export function knownChars(v: unknown): number | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  return BOUNDS.get(v) ?? MEASURED.get(v);
}

/** An upper bound of jsonChars(v) when one is known, else its exact size (up to `limit`). */
export function valueChars(v: unknown, limit = MAX_VALUE_CHARS): number {
  return (typeof v === 'object' && v !== null ? BOUNDS.get(v) : undefined) ?? jsonChars(v, limit);
}

/** what to do about a value too large, for a step of code or an op (the default) and for a model's answer */
const TOO_LARGE_HINTS = {
  code: 'Write large data to the workspace (file/write, or a file from the code step) and pass its path instead.',
  model: "Ask the model for a shorter answer (the phase's prompt or output schema), or have it write large data to the workspace with a tool (file/write) and answer with its path.",
} as const;

export function tooLarge(what: string, hint: keyof typeof TOO_LARGE_HINTS = 'code'): ValueTooLargeError {
  return new ValueTooLargeError(
    `${what} more than ${formatChars(MAX_VALUE_CHARS)} of JSON (the most a step's output or a run's value may hold). ` + TOO_LARGE_HINTS[hint],
    { maxChars: MAX_VALUE_CHARS },
  );
}

/**
 * Whether `v` is at most MAX_VALUE_CHARS of JSON (a known bound under the cap will do). An object
 * measured here is remembered whatever its size: it is a step's output, which the step's checks
 * and its record (the merge's bound, the journal's unit size) measure again.
 */
export function valueFits(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return jsonChars(v, MAX_VALUE_CHARS) <= MAX_VALUE_CHARS;
  const bound = BOUNDS.get(v);
  return (bound !== undefined && bound <= MAX_VALUE_CHARS) || rememberChars(v) <= MAX_VALUE_CHARS;
}

/** `jsonChars(v)`, remembered for `v` (an object measured often: a step's definition, built once per step). */
export function rememberChars(v: object): number {
  // known already (a step's output is checked where it is merged, then where it is recorded): nothing to write again
  const known = MEASURED.get(v);
  if (known !== undefined) return known;
  const n = jsonChars(v, MAX_VALUE_CHARS);
  if (n <= MAX_VALUE_CHARS) MEASURED.set(v, n);
  return n;
}

/** Throws ValueTooLargeError when `v` is over MAX_VALUE_CHARS of JSON; `what` says whose it is ("it returned"). */
export function requireValueFits(v: unknown, what: string): void {
  if (!valueFits(v)) throw tooLarge(what);
}

/**
 * `merged` is `base` with `added` merged in (shallow, or under a key of `keyChars` characters):
 * throws ValueTooLargeError when it is over the cap, and remembers a bound of its size otherwise.
 * `addedChars`: jsonChars(added), when its caller knows it (the length of its JSON text).
 */
export function requireMergeFits(base: object, added: unknown, merged: object, keyChars: number, addedChars?: number): void {
  if (merged === base) return;
  let bound = valueChars(base) + (addedChars ?? valueChars(added)) + keyChars + 4;
  if (bound > MAX_VALUE_CHARS) {
    bound = jsonChars(merged, MAX_VALUE_CHARS);
    if (bound > MAX_VALUE_CHARS) throw tooLarge('with its result merged in, the value would hold');
  }
  BOUNDS.set(merged, bound);
}

/** Remembers a bound of `v`'s size that its maker worked out (iterate adds up its elements). */
export function rememberBound(v: object, bound: number): void {
  BOUNDS.set(v, bound);
}
