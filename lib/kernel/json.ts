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
