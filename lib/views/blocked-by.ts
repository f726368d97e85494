/**
 * What blocked a completed run, said as a runs list row says it (the /runs page, the home page's
 * last run, `stagecraft runs`): `blocked by stage path_guard: denied call 2 (reading secrets/keys.txt
 * is not allowed by path_guard)` — the run report's words ("Completed, but blocked: stage path_guard
 * denied call 2 (…)"). Read by hand, with no zod: the CLI loads none.
 */
export type BlockedByWordsOf = { stage: string; call: number; reason: string };

/** `blocked by stage <stage>: denied call <n> (<reason>)`; the reason as given (a caller cuts or escapes it) */
export function blockedByWords(b: BlockedByWordsOf): string {
  return `blocked by stage ${b.stage}: denied call ${b.call} (${b.reason})`;
}
