/**
 * Cost from tokens: a price table (per million input and output tokens, by
 * model) and the model a run used give each turn's cost. The table is
 * configuration (`STAGECRAFT_PRICES`, read by lib/server): without one, views
 * show tokens and latency and no cost — never a made-up price.
 *
 * A model is looked up by its spec as the run recorded it (`openai:gpt-4o-mini`),
 * then by its name after the adapter (`gpt-4o-mini`), then `*`.
 *
 * Owns: the lookup and the arithmetic. Does not: read the environment.
 */
export type ModelPrice = { input: number; output: number };
export type PriceTable = { currency: string; models: Record<string, ModelPrice> };
/** the price that applies to a run: which table entry, in which currency */
export type AppliedPrice = ModelPrice & { model: string; currency: string };

export function priceFor(table: PriceTable | null, model: string): AppliedPrice | null {
  if (!table) return null;
  const name = model.includes(':') ? model.slice(model.indexOf(':') + 1) : model;
  for (const key of [model, name, '*']) {
    const p = table.models[key];
    if (p) return { ...p, model: key, currency: table.currency };
  }
  return null;
}

/** the cost of a turn's tokens (null without a price or without usage) */
export function costOf(usage: { inputTokens: number; outputTokens: number } | null | undefined, price: AppliedPrice | null): number | null {
  if (!price || !usage) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
