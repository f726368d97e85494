/**
 * Whether a model turn's tokens are known. A turn records `usage` when its model said what it
 * used. An endpoint (the OpenAI-compatible adapter, `openai` / `openai:MODEL`) that answers without
 * `usage` did spend tokens — it just did not say how many — so such a turn's tokens, and any cost
 * made from them, are unknown, never 0. A model script that gives no `usage` spent nothing: no model
 * was called, so its turn counts 0 tokens, as it always did.
 *
 * Read from the turn as recorded and the model that answered it (the model step's `model`), so old
 * logs fold the same way: nothing new is recorded for it.
 *
 * Owns: that decision, one place for the timeline's totals and compare's, and the words for it the
 * run page and the CLI share (so it imports nothing: browser code may import it, as plural.ts).
 * Does not: sum them (timeline.ts, compare.ts), or price them (prices.ts).
 */
/** a model spec that names an endpoint, which may leave its usage out */
export function isEndpointModel(model: unknown): boolean {
  return typeof model === 'string' && (model === 'openai' || model.startsWith('openai:'));
}

/**
 * a turn an endpoint answered without saying how many tokens it used; `step`: its model step's data
 * (a turn edited at a fork point is the fork's value, which no model answered)
 */
export function isUsageUnreported(step: { model?: unknown; edited?: unknown } | null | undefined, turn: { usage?: unknown } | null | undefined): boolean {
  const usage = turn?.usage;
  const hasUsage = typeof usage === 'object' && usage !== null && !Array.isArray(usage);
  return turn !== null && turn !== undefined && !hasUsage && step?.edited !== true && isEndpointModel(step?.model);
}

/**
 * The words for turns that did not report, as the run page and `stagecraft compare` say them:
 * `tokens not reported by the model endpoint for 2 of 3 turns`; all of them: `… for all 3 turns`;
 * a single turn: `tokens not reported by the model endpoint`.
 */
export function notReportedText(turns: number, of: number): string {
  const words = 'tokens not reported by the model endpoint';
  if (turns < of) return `${words} for ${turns} of ${of} turns`;
  return of > 1 ? `${words} for all ${of} turns` : words;
}

/** no turn of them reported its tokens: there is no figure to give (a 0 would read as none used) */
export function noneReported(notReported: { turns: number; of: number } | null | undefined): boolean {
  return !!notReported && notReported.turns === notReported.of;
}
