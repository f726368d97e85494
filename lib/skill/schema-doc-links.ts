/**
 * The frontmatter JSON Schema as the editor serves it to monaco-yaml: every
 * described key also gets a `markdownDescription` — its description and a
 * link to its section of the skill.md reference (docs/skill-md.md, served at
 * /docs/skill-md), so a hover says what a key does and where to read more.
 *
 * Owns: walking the schema with the key path each part describes (the anchor
 * itself is key-info.ts's `docAnchorOf`). Does not: change what the schema
 * accepts. Imports nothing from Node.
 */
import type { Json, JsonObject } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import { docAnchorOf } from './key-info';

/** A copy of `schema` with a linked markdownDescription beside every description. */
export function schemaWithDocLinks(schema: JsonObject, docsUrl: string): JsonObject {
  // `at` is the key path the node describes (numbers stand for any item, '*' for any key)
  const walk = (node: Json, at: (string | number)[]): Json => {
    if (Array.isArray(node)) return node.map((x) => walk(x, at));
    if (!isJsonObject(node)) return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'properties' && isJsonObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, walk(s, [...at, p])]));
      else if (k === 'additionalProperties' || k === 'patternProperties') out[k] = walk(v, k === 'patternProperties' ? at : [...at, '*']);
      else if (k === 'items' || k === 'prefixItems') out[k] = walk(v, [...at, 0]);
      else if (k === '$defs' || k === 'definitions') out[k] = isJsonObject(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, walk(s, at)])) : v;
      else out[k] = walk(v, at);
    }
    const anchor = at.length ? docAnchorOf(at) : null;
    if (typeof out.description === 'string' && anchor) out.markdownDescription = `${out.description}\n\n[skill.md reference: ${anchor}](${docsUrl}#${anchor})`;
    return out;
  };
  return walk(schema, []) as JsonObject;
}
