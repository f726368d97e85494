/**
 * A runs time range typed as text (`stagecraft runs --since/--until`, the runs page's `?from=`/`?to=`),
 * so the command and the page read a time, a date alone, a year-month or a year the same way.
 *
 * Owns: which texts are times (`parseRangeTime`), what a year, a month or a date without a time of
 * day means as an end, and which ranges are empty. Does not: word a text that is not a time (each
 * caller says its own error) or filter (the run index: `to` is exclusive). Free of zod: `stagecraft
 * runs` loads it, and that command's module never loads the views' schemas.
 */
/** a date with no time of day, as Date.parse reads it: that day's first instant, UTC */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** a year-month (2026-12), as Date.parse reads it: the 1st's first instant, UTC */
const YEAR_MONTH = /^\d{4}-\d{2}$/;
/** a year alone (2026), as Date.parse reads it: January 1st's first instant, UTC — never epoch ms */
const YEAR_ONLY = /^\d{4}$/;
/** epoch milliseconds: a whole number of up to 16 digits (past any date there is) that is not a year */
const EPOCH_MS = /^\d{1,16}$/;
const DAY_MS = 86_400_000;
/** the last instant a Date can hold: epoch ms past it name no time (16 digits can) */
const MAX_MS = 8.64e15;

/** What `parseRangeTime` reads, in the words both the command's and the page's error use. */
export const RANGE_TIME_FORMS =
  'a date (2026-12-01) or an ISO date-time (2026-12-01T10:00Z), a month (2026-12), a year (2026, four digits) or epoch milliseconds (any other whole number), from 1970 on';

/**
 * The instant a typed time names, or undefined when it names none (or one before 1970: the API's
 * `from`/`to` start there; or one past the last a Date holds): an ISO date-time, a date, a year-month or a year alone (its first
 * instant, UTC), else a whole number as epoch ms. Four digits are a year — `--until 2026` was read as
 * 2 s after 1970, which no one means; a time that near 1970 is still a date-time away.
 */
export function parseRangeTime(text: string): number | undefined {
  const t = text.trim();
  const ms = EPOCH_MS.test(t) && !YEAR_ONLY.test(t) ? Number(t) : Date.parse(t);
  return Number.isNaN(ms) || ms < 0 || ms > MAX_MS ? undefined : ms;
}

/**
 * The `to` of a time range typed as text (`stagecraft runs --until`, the runs page's `?to=`), given
 * the instant the text parsed to: a date alone is the whole of that day, so the range ends where the
 * next day starts (`to` is exclusive) — `--until 2026-12-04` keeps the runs of the 4th, as `--since
 * 2026-12-04` does; a year-month is the whole month, to the next month's first instant (`--until
 * 2026-12` keeps December's runs, `--since 2026-12` starts on the 1st), and a year the whole year
 * (`--until 2026` ends at 2027's first instant). A time of day or epoch ms is taken as it is. The
 * API's `to` is epoch ms only: exact.
 */
export function untilOf(text: string, ms: number): number {
  const t = text.trim();
  if (DATE_ONLY.test(t)) return ms + DAY_MS;
  const next = new Date(ms);
  // setUTCMonth carries December into the next January
  if (YEAR_MONTH.test(t)) next.setUTCMonth(next.getUTCMonth() + 1);
  else if (YEAR_ONLY.test(t)) next.setUTCFullYear(next.getUTCFullYear() + 1);
  else return ms;
  return next.getTime();
}

/**
 * Whether a range holds no instant at all: `to` is exclusive, so a range from an instant to itself
 * (or to before it) is empty. The runs page leaves such a range out with a word, `stagecraft runs`
 * refuses it: the same rule for both, on `to` as `untilOf` gives it (a date alone for both is a day).
 */
export function isEmptyRange(from: number, to: number): boolean {
  return from >= to;
}
