/**
 * What the key under the editor's cursor means: the frontmatter key path at a
 * position of skill.md, and the description `skillFrontmatterSchema` gives
 * that key, with the anchor of its section in the skill.md docs.
 *
 * Owns: the position → key path rule (a cursor in a line's indentation or on
 * a `- ` list marker belongs to what follows on that line), the schema walk
 * (properties, additionalProperties, items, `$ref`, and the `allOf` if/then
 * branches chosen by the value they test — a step's `type`, a capability's
 * `uses`), and the doc anchors (`DOC_ANCHORS`, shared with the docs author).
 * Called on every cursor move, so it parses only when the text changed and
 * walks only the path. Does not: validate (validate.ts) or hover values
 * (the editor asks the schema for completion itself).
 */
import type { JsonObject } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import { isMap, isScalar, isSeq } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { skillFrontmatterSchema } from './schema';
import type { FrontmatterSource, KeyPath } from './source';
import { formatPath, parseFrontmatter, splitSkill } from './source';

/** The section slugs of docs/skill-md.md that `describeKey` points at. */
export const DOC_ANCHORS = [
  'name',
  'description',
  'entry',
  'graph',
  'final_output',
  'output_schema',
  'artifacts',
  'phases',
  'phases-input_schema',
  'phases-output_schema',
  'phases-tools',
  'phases-max_rounds',
  'phases-preprocessor',
  'capabilities',
  'capabilities-stage',
  'capabilities-uses',
  'capabilities-effects',
  'capabilities-with',
  'permissions',
  'permissions-ops',
  'permissions-effects',
  'postprocessor',
  'postprocessor-output_schema',
  'postprocessor-steps',
  'step-types',
] as const;

export type DocAnchor = (typeof DOC_ANCHORS)[number];

export type KeyInfo = {
  /** the key described, formatted (an ancestor of the asked path inside free-form data: a JSON Schema, `args`, `with`) */
  path: string;
  description: string;
  anchor: DocAnchor;
};

// ------------------------------------------------------------ position → key path

type Ranged = { range?: [number, number, number] | null };

function holds(node: unknown, offset: number): boolean {
  const r = (node as Ranged | null | undefined)?.range;
  return !!r && r[0] <= offset && offset <= r[1];
}

/** Whether a `key: value` pair spans the offset, from its key to the end of its value. */
function pairHolds(pair: { key: unknown; value: unknown }, offset: number): boolean {
  const k = (pair.key as Ranged | null)?.range;
  const v = (pair.value as Ranged | null)?.range;
  return !!k && k[0] <= offset && offset <= Math.max(k[1], v ? v[1] : k[1]);
}

/** The key path at a whole-file position of an already parsed frontmatter, or null outside any key. */
export function keyPathIn(source: FrontmatterSource, line: number, column: number): KeyPath | null {
  let offset = source.offsetAt(line, column);
  if (offset === undefined) return null;
  const text = source.yamlText;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let first = lineStart;
  while (first < text.length && (text[first] === ' ' || text[first] === '\t' || (text[first] === '-' && /[ \t]/.test(text[first + 1] ?? '')))) first++;
  if (offset < first) offset = first;

  const path: KeyPath = [];
  let node: unknown = source.doc.contents;
  for (;;) {
    if (isMap(node)) {
      const pair = node.items.find((p) => pairHolds(p, offset));
      if (!pair || !isScalar(pair.key)) break;
      path.push(String(pair.key.value));
      if (holds(pair.key, offset)) break;
      node = pair.value;
    } else if (isSeq(node)) {
      const i = node.items.findIndex((item) => holds(item, offset));
      if (i < 0) break;
      path.push(i);
      node = node.items[i];
    } else break;
  }
  return path.length ? path : null;
}

let lastParse: { text: string; source: FrontmatterSource | null } | undefined;

/** The frontmatter of `text`, parsed once per distinct text (cursor moves repeat the same text). */
function sourceOf(text: string): FrontmatterSource | null {
  if (lastParse?.text !== text) {
    const split = splitSkill(text);
    lastParse = { text, source: 'rule' in split ? null : parseFrontmatter(split).source };
  }
  return lastParse.source;
}

/** The frontmatter key path at a (1-based, whole-file) position of skill.md; null outside the frontmatter or any key. */
export function keyPathAt(text: string, line: number, column: number): KeyPath | null {
  const source = sourceOf(text);
  return source ? keyPathIn(source, line, column) : null;
}

// ------------------------------------------------------------ key path → description

const root = skillFrontmatterSchema;

/** A schema with its local `$ref`s followed (the frontmatter schema only refers to its own `$defs`). */
function deref(schema: unknown): JsonObject | undefined {
  let cur = schema;
  for (let hops = 0; hops < 8 && isJsonObject(cur) && typeof cur.$ref === 'string' && cur.$ref.startsWith('#/'); hops++) {
    let target: unknown = root;
    for (const seg of cur.$ref.slice(2).split('/')) target = isJsonObject(target) ? target[seg] : undefined;
    cur = target;
  }
  return isJsonObject(cur) ? cur : undefined;
}

/**
 * A schema and its `allOf` if/then branches: the branches whose tested value
 * matches (first), or — when the value cannot be seen — every branch after
 * the schema itself, so that a key any of them knows is found.
 */
function withBranches(schema: JsonObject, at: KeyPath, valueAt?: (path: KeyPath) => unknown): JsonObject[] {
  const conditional = (Array.isArray(schema.allOf) ? schema.allOf : []).filter(isJsonObject).flatMap((b) => {
    const cond = isJsonObject(b.if) && isJsonObject(b.if.properties) ? Object.entries(b.if.properties) : [];
    const then = deref(b.then);
    if (cond.length !== 1 || !isJsonObject(cond[0][1]) || !then) return [];
    return [{ key: cond[0][0], value: cond[0][1].const, then }];
  });
  if (!conditional.length) return [schema];
  const seen = valueAt?.([...at, conditional[0].key]);
  if (seen === undefined) return [schema, ...conditional.map((c) => c.then)];
  return [...conditional.filter((c) => c.value === seen).map((c) => c.then), schema];
}

/** The description most of the alternatives give (ties: the first one's). */
function commonDescription(alternatives: JsonObject[]): string | undefined {
  const counts = new Map<string, number>();
  for (const s of alternatives) if (typeof s.description === 'string') counts.set(s.description, (counts.get(s.description) ?? 0) + 1);
  let best: string | undefined;
  for (const [d, n] of counts) if (best === undefined || n > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** The reference section a key path belongs to (any phase's, any capability's keys share one). */
export function docAnchorOf(path: KeyPath): DocAnchor {
  const known = (slug: string): slug is DocAnchor => (DOC_ANCHORS as readonly string[]).includes(slug);
  if (path.some((seg, i) => seg === 'steps' && typeof path[i + 1] === 'number')) return 'step-types';
  const top = String(path[0]);
  const child = top === 'phases' ? path[2] : top === 'capabilities' ? path[2] : path[1];
  const sub = `${top}-${String(child)}`;
  if (typeof child === 'string' && known(sub)) return sub;
  return known(top) ? top : 'name';
}

/**
 * The schema's description of the key at `path`, or null for a key the
 * format does not have. `valueAt` (a value of the frontmatter by path) lets
 * a step's `type` or a capability's `uses` pick its branch; without it the
 * description common to the branches is given.
 */
export function describeKey(path: KeyPath, valueAt?: (path: KeyPath) => unknown): KeyInfo | null {
  if (path.length === 0) return null;
  let alternatives: JsonObject[] = [root];
  let described: { depth: number; description: string } | undefined;
  for (let depth = 0; depth < path.length; depth++) {
    const seg = path[depth];
    const next: JsonObject[] = [];
    for (const s of alternatives) {
      const child =
        typeof seg === 'number'
          ? s.items
          : isJsonObject(s.properties) && Object.prototype.hasOwnProperty.call(s.properties, seg)
            ? s.properties[seg]
            : isJsonObject(s.additionalProperties)
              ? s.additionalProperties
              : undefined;
      const schema = deref(child);
      if (schema) next.push(...withBranches(schema, path.slice(0, depth + 1), valueAt));
    }
    if (!next.length) {
      // an unknown key where the format lists the keys: nothing to describe
      if (typeof seg === 'string' && alternatives.some((s) => s.additionalProperties === false)) return null;
      break; // free-form data (a JSON Schema, `args`, `with`): its nearest described ancestor
    }
    alternatives = next;
    const description = commonDescription(alternatives);
    if (description !== undefined) described = { depth, description };
  }
  if (!described) return null;
  return { path: formatPath(path.slice(0, described.depth + 1)), description: described.description, anchor: docAnchorOf(path) };
}

/** `describeKey` of the key at a position of skill.md, its branches chosen by the values written there. */
export function describeKeyAt(text: string, line: number, column: number): KeyInfo | null {
  const source = sourceOf(text);
  const path = source ? keyPathIn(source, line, column) : null;
  if (!source || !path) return null;
  return describeKey(path, (p) => {
    const v = source.nodeAt(p) as YamlNode | undefined;
    return isScalar(v) ? v.value : undefined;
  });
}
