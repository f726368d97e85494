/**
 * The frontmatter schema as monaco-yaml's worker can use it while the frontmatter holds a key YAML
 * reads as null (`: value`, `~: x`, `null: x`).
 *
 * monaco-yaml 5.5 (its yaml-language-server) matches the whole document against the schema for every
 * completion and hover. For a key an object with `additionalProperties: false` does not allow, it makes
 * the message `l10n.t("Property {0} is not allowed.", key)`, unless the schema gives an `errorMessage`;
 * with a null key, l10n takes null for a record of named arguments and throws in `Object.keys(null)`.
 * The worker then logged the error to the console at each Ctrl+Space and answered no suggestion and no
 * hover anywhere in the file until the line was fixed. Each such object gets a message of its own here,
 * so the worker never formats one. Its validation is off (Stagecraft's own validator gives the markers),
 * so the message is never shown; what the schema accepts, and so what completion offers, is unchanged.
 */
import type { Json, JsonObject } from '@/lib/kernel/json';

export const EXTRA_KEY_MESSAGE = 'Property is not allowed.';

/** keywords whose values are data (what completion inserts, what a value must be), not schemas */
const DATA = new Set(['default', 'examples', 'const', 'enum', 'defaultSnippets']);

/** A copy of `schema` in which each object that forbids other keys has an `errorMessage`. */
export function schemaSafeForNullKeys(schema: JsonObject): JsonObject {
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: JsonObject = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, DATA.has(k) ? v : walk(v)]));
    const forbidsOthers = out.additionalProperties === false || out.unevaluatedProperties === false;
    if (forbidsOthers && out.errorMessage === undefined) out.errorMessage = EXTRA_KEY_MESSAGE;
    return out;
  };
  return walk(schema) as JsonObject;
}
