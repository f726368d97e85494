// The timeline's words for its failures: how many items failed, were refused or denied — and, when
// none did but the run itself failed (a model error, a script with no turn left, max_rounds, a
// contract), that the run failed, so a failed run never reads "0 failures" / "Nothing failed".

/** an error's first line: the words the run report shows for what failed (its stack is in Details) */
export const errorLine = (message: string): string => message.split('\n')[0];

/** `selected`: what the page opened on (`run` when the failure is the run's own, outside any item) */
export const runItselfFailed = (failures: number, selected: string | null): boolean => failures === 0 && selected === 'run';

/**
 * the count beside `Next failure`; `denied`: how many of them are tool calls a stage denied — no
 * failure of the run, so said for what they are after the count ("1 failure (a denied tool call)").
 * `runStatus`: a run that failed or was aborted with only denials among its failures is not told
 * "not a failure of the run": its own failure (max_rounds after a denial, a model error) is said.
 * `refused`: how many of them are stages refused for a missing grant — they never ran, so they did not
 * fail either, and are said after the denials' words, which stay as they were (a completed run with 6
 * refused stages read only "7 failures (1 of them a denied tool call)", in red, as if six things had broken).
 */
export function failureCountText(failures: number, selected: string | null, denied = 0, runStatus?: string, refused = 0): string {
  const n = Math.min(denied, failures);
  const r = Math.min(refused, failures - n);
  const text = deniedCountText(failures, selected, n, runStatus);
  if (r <= 0 || runItselfFailed(failures, selected)) return text;
  // the refused stages after what was said before of the denials (kept whole)
  const stages = r === 1 ? '1 refused stage' : `${r.toLocaleString('en')} refused stages`;
  const none = r + n === failures; // nothing else failed
  const end = !none ? '' : runEndedBadly(runStatus) ? `; the run itself ${runStatus === 'aborted' ? 'was aborted' : 'failed'}: the run report says why` : `, ${failures === 1 ? 'not a failure' : 'not failures'} of the run`;
  if (n > 0) return `${text}, ${none ? `the other ${stages}` : stages}${end}`;
  return `${text} (${none ? stages : r === 1 ? '1 of them a refused stage' : `${r.toLocaleString('en')} of them refused stages`}${end})`;
}

/** the count and its denied calls (`n` of them), as said before refused stages were told apart */
function deniedCountText(failures: number, selected: string | null, n: number, runStatus?: string): string {
  if (runItselfFailed(failures, selected)) return 'the run itself failed';
  const text = failures === 1 ? '1 failure' : `${failures.toLocaleString('en')} failures`;
  if (n <= 0) return text;
  if (n === failures && runEndedBadly(runStatus)) {
    return `${text} (${n === 1 ? 'a denied tool call' : 'all denied tool calls'}; the run itself ${runStatus === 'aborted' ? 'was aborted' : 'failed'}: the run report says why)`;
  }
  if (n === failures) return `${text} (${n === 1 ? 'a denied tool call, not a failure of the run' : 'all denied tool calls, not failures of the run'})`;
  return `${text} (${n === 1 ? '1 of them a denied tool call' : `${n.toLocaleString('en')} of them denied tool calls`})`;
}

/** a run that ended failed or aborted: its failure count is drawn as failures even when all its failed items are denials */
export const runEndedBadly = (runStatus: string | undefined): boolean => runStatus === 'failed' || runStatus === 'aborted';

/** what `Failed only` shows when no item is left */
export function failedOnlyEmptyText(failures: number, selected: string | null): string {
  return runItselfFailed(failures, selected)
    ? 'No step, stage or tool call failed, was refused or denied: the run itself failed — the run report says why.'
    : 'Nothing failed, was refused or denied.';
}
