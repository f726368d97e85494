/**
 * JSON value types shared by the kernel, the store and the app.
 *
 * Owns: the shape of everything the kernel records (events, traces, snapshots
 * and step outputs are all plain JSON so they can cross a process or a database
 * boundary unchanged). Does not: validate or serialise; see canonical.ts.
 */
export type JsonPrimitive = string | number | boolean | null;
export type Json = JsonPrimitive | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** A JSON Schema (2020-12): an object or a boolean schema. */
export type JsonSchema = JsonObject | boolean;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `{ ...a, ...b }`, built with Object.assign: the same object (same keys, same order), but V8 builds
 * a spread followed by other members slowly when the sources' shapes vary (a step's label, a chain's
 * value): tens of µs an object against a fraction of one. An own `__proto__` key (JSON.parse makes
 * one) is where the two differ — a spread keeps it an own key, assign would set the prototype — so
 * such a source is spread.
 */
export function merged<A extends object, B extends object>(a: A, b: B): A & B {
  if (Object.hasOwn(a, '__proto__') || Object.hasOwn(b, '__proto__')) return { ...a, ...b };
  return Object.assign({}, a, b);
}
