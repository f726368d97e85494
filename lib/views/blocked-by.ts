/**
 * What blocked a completed run, said as a runs list row says it (the /runs page, the home page's
 * last run, `stagecraft runs`): `blocked by stage path_guard: denied call 2 (reading secrets/keys.txt
 * is not allowed by path_guard)` — the run report's words ("Completed, but blocked: stage path_guard
 * denied call 2 (…)", lib/kernel/denied-words.ts: `deniedCallWords`, the studio's recent runs say it
 * so too). Read by hand, with no zod: the CLI loads none.
 */
import { deniedCall, deniedCallWords } from '../kernel/denied-words';

export { deniedCallWords };

export type BlockedByWordsOf = { stage: string; call: number; reason: string };

/** `by stage <stage>: denied call <n> (<reason>)`: `stagecraft runs`' BLOCKED cell, under its header */
export function byStageWords(b: BlockedByWordsOf): string {
  return `by stage ${b.stage}: ${deniedCall(b.call, b.reason)}`;
}

/** `blocked by stage <stage>: denied call <n> (<reason>)`; the reason as given (a caller cuts or escapes it) */
export function blockedByWords(b: BlockedByWordsOf): string {
  return `blocked ${byStageWords(b)}`;
}
