/**
 * A count and its noun as every printed count says it — the CLI's lines, the report's summary, an
 * event's few words, an error's message: `0 steps`, `1 step`, `2 steps`, `1,000 steps`.
 *
 * Owns: the number's form (whole numbers grouped by thousands with commas, in English whatever the
 * machine's locale, so the words are the same on every machine and in every recording) and the noun's.
 * Does not: pick words (the caller names the singular and, when it is not the singular + s, the plural).
 */

/** `1000` → `1,000`; anything but a whole number is written as it is */
export function counted(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(n);
}

/** `plural(1, 'step')` → `1 step`; `plural(1000, 'step')` → `1,000 steps`; `plural(2, 'child', 'children')` */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${counted(n)} ${n === 1 ? one : many}`;
}
