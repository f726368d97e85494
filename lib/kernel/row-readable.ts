/**
 * What a run's `error` and `report` hold in its runs row. The Postgres store's
 * generated columns read both with `->>` (outcome, error_message, failed_at,
 * needs_attention), and Postgres will not read a `\u0000` escape or a lone
 * surrogate's anywhere in that JSON: a run whose code raised "a\0b", or whose
 * stage's denial held a NUL, had its end refused (record_refused) and lost its
 * error. In these two fields a NUL becomes the text `\x00` (as a step's printed
 * output shows it) and a lone surrogate U+FFFD, in keys and strings alike.
 *
 * Owns: that rule, for every store (lib/store/wire.ts, memory-store.ts), so that
 * all read back alike. Does not: touch a run's events, output or anything else
 * recorded — those keep exactly what was written.
 */

/** a lone surrogate as JSON.stringify writes it (a pair is written as its two characters, never escaped) */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/i;
const LONE_SURROGATES = /\p{Cs}/gu;

/** Whether JSON text (JSON.stringify's) holds what a runs row's error or report may not: true also for the text `\u0000` itself (then nothing changes). */
export function unreadableInRow(json: string): boolean {
  return json.includes('\\u0000') || LONE_SURROGATE_ESCAPE.test(json);
}

/**
 * `text` with each NUL shown as the text `\x00` (as a terminal is shown a control: terminal-text.ts):
 * also what a code step printed (lib/sandbox/call-output.ts), which its record and its error carry.
 */
export function withoutNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\\x00') : text;
}

/** `v` (a JSON value) with each NUL as the text `\x00` and each lone surrogate as U+FFFD, in keys and strings. */
export function readableInRow(v: unknown): unknown {
  if (typeof v === 'string') return withoutNul(v).replace(LONE_SURROGATES, '\uFFFD');
  if (Array.isArray(v)) return v.map(readableInRow);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [readableInRow(k), readableInRow(x)]));
}
