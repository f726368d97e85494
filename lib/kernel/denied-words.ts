/**
 * A denied tool call in words, as the run report's summary says it ("Completed, but blocked: stage
 * path_guard denied call 2 (reading secrets/keys.txt is not allowed by path_guard).") and every place
 * that repeats it says it too (the studio's recent runs, a runs row's `blocked by stage …: denied call
 * …`, lib/views/blocked-by.ts): one phrase, so the places cannot drift apart.
 *
 * Owns: the phrase. Does not: cut or escape the reason (the caller does), nor decide what blocked a
 * run (report.ts). Free of imports: browser code reaches it through lib/views/blocked-by.ts.
 */

/** `denied call <n> (<reason>)` */
export function deniedCall(call: number | string, reason: string): string {
  return `denied call ${call} (${reason})`;
}

/** `stage <stage> denied call <n> (<reason>)`: the report's words for the call that blocked a run */
export function deniedCallWords(b: { stage: string; call: number; reason: string }): string {
  return `stage ${b.stage} ${deniedCall(b.call, b.reason)}`;
}
