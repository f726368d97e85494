/**
 * The end of a runs time range typed as text (`stagecraft runs --until`, the runs page's `?to=`), so
 * the command and the page read a date alone, or a year-month, the same way.
 *
 * Owns: what a date or a month without a time of day means as an end, and which ranges are empty.
 * Does not: parse the text (each caller says its own error) or filter (the run index: `to` is
 * exclusive). Free of zod: `stagecraft runs` loads it, and that command's module never loads the
 * views' schemas.
 */
/** a date with no time of day, as Date.parse reads it: that day's first instant, UTC */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** a year-month (2026-12), as Date.parse reads it: the 1st's first instant, UTC */
const YEAR_MONTH = /^\d{4}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * The `to` of a time range typed as text (`stagecraft runs --until`, the runs page's `?to=`), given
 * the instant the text parsed to: a date alone is the whole of that day, so the range ends where the
 * next day starts (`to` is exclusive) — `--until 2026-12-04` keeps the runs of the 4th, as `--since
 * 2026-12-04` does; a year-month is the whole month, to the next month's first instant (`--until
 * 2026-12` keeps December's runs, `--since 2026-12` starts on the 1st). A time of day or epoch ms is
 * taken as it is. The API's `to` is epoch ms only: exact.
 */
export function untilOf(text: string, ms: number): number {
  const t = text.trim();
  if (DATE_ONLY.test(t)) return ms + DAY_MS;
  if (!YEAR_MONTH.test(t)) return ms;
  // setUTCMonth carries December into the next January
  const next = new Date(ms);
  next.setUTCMonth(next.getUTCMonth() + 1);
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
