/**
 * Small helpers shared by the response-format derivation and its condition
 * logic: a schema level's properties, value lists, equality of JSON values
 * regardless of key order.
 *
 * Owns: nothing but these. Does not: know about schemas beyond `properties`.
 */
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import { canonicalJson } from './memo';

/** A plain schema level: no `$ref`, `allOf`, `anyOf`, `oneOf`, `if/then/else`; children not yet normalized. */
export type Shell = JsonObject;

export function props(s: Shell): JsonObject {
  return isJsonObject(s.properties) ? s.properties : {};
}

export function asArray(v: Json): Json[] {
  return Array.isArray(v) ? v : [v];
}

export function unique(xs: Json[]): Json[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const key = canonicalJson(x);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function dedupe<T extends JsonObject>(xs: T[]): T[] {
  return unique(xs) as T[];
}

export function same(a: Json, b: Json): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
