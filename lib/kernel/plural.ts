/**
 * A count and its noun as every printed count says it — the CLI's lines, the report's summary, an
 * event's few words, an error's message: `0 steps`, `1 step`, `2 steps`, `1000 steps`.
 *
 * Owns: the number's form — plain digits, ungrouped, as the kernel's recorded words and the CLI's lines
 * always wrote them (scripts and recorded summaries match `\d+`) — and the noun's. The studio says its
 * counts with these too (a kernel module browser code imports, as cut-text.ts: keep it free of imports), but
 * where it groups thousands for reading (`1,204 visits`).
 * Does not: pick words (the caller names the singular and, when it is not the singular + s, the plural).
 */

/** a count's digits: `1000` → `1000` (one place to change if printed counts are ever grouped) */
export function counted(n: number): string {
  return String(n);
}

/** `plural(1, 'step')` → `1 step`; `plural(1000, 'step')` → `1000 steps`; `plural(2, 'child', 'children')` */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${counted(n)} ${n === 1 ? one : many}`;
}

/**
 * A part of a count, as a note after it says it: `partOf(5, 7)` → `5`; `partOf(7, 7)` → `all 7`
 * (one of one stays `1`: "all 1" reads as a slip). The run report's summary and the run page's
 * Model rounds card both say how many were reused from a recording with it.
 */
export function partOf(part: number, whole: number): string {
  return part === whole && whole > 1 ? `all ${counted(part)}` : counted(part);
}
