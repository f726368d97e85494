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
 * Owns: that decision, one place for the timeline's totals and compare's. Does not: sum or word
 * them (timeline.ts, compare.ts, the views), or price them (prices.ts).
 */
import { isJsonObject } from './json';

/** a model spec that names an endpoint, which may leave its usage out */
export function isEndpointModel(model: unknown): boolean {
  return typeof model === 'string' && (model === 'openai' || model.startsWith('openai:'));
}

/** a turn an endpoint answered without saying how many tokens it used */
export function isUsageUnreported(model: unknown, turn: { usage?: unknown } | null | undefined): boolean {
  return turn !== null && turn !== undefined && !isJsonObject(turn.usage) && isEndpointModel(model);
}
