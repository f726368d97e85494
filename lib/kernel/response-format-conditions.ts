/**
 * Deciding which branches of a response-format schema apply: discriminated
 * `oneOf`/`anyOf` branches selected by a known value (or a `mode` hint), and
 * `if` conditions decided as true, false or undecided against what is known.
 *
 * Owns: that three-valued decision. Does not: merge or rewrite schemas
 * (response-format.ts does).
 */
import type { Json, JsonSchema } from './json';
import { isJsonObject } from './json';
import { asArray, props, same, type Shell } from './response-format-shared';

/** Keywords that say nothing about validity: ignored when deciding an `if`. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);


/**
 * Keeps the branches a known discriminator value selects. A discriminator is
 * a property every branch pins with `const`/`enum`; its known value comes from
 * `value`, else from the `mode` hint. No known value, or none that matches a
 * branch: every branch is kept.
 */
export function selectBranches(branches: Shell[], value: Json | undefined, mode: string | undefined): Shell[] {
  if (branches.length < 2) return branches;
  const first = props(branches[0]);
  for (const p of Object.keys(first)) {
    if (!branches.every((b) => literalsOf(props(b)[p]) !== null)) continue;
    const known = knownValue(value, p, mode);
    if (known === undefined) continue;
    const kept = branches.filter((b) => (literalsOf(props(b)[p]) ?? []).some((lit) => same(lit, known)));
    if (kept.length > 0) return kept;
  }
  return branches;
}

/** The literal values a property schema pins (`const` or `enum`), or null when it pins none. */
export function literalsOf(schema: Json | undefined): Json[] | null {
  if (!isJsonObject(schema)) return null;
  if (schema.const !== undefined) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  return null;
}

export function knownValue(value: Json | undefined, p: string, mode: string | undefined): Json | undefined {
  if (isJsonObject(value) && value[p] !== undefined) return value[p];
  return mode;
}

/**
 * The `mode` hint, as a condition sees it: it stands for property `p` only
 * when `p` can take that value — the condition tests for it, or the parent
 * level pins `p` to literals that include it. So `mode: 'edit'` decides
 * `if mode == edit` (and `if mode == review`, when the parent says mode is
 * edit|review), but says nothing about `if outcome == blocked`.
 */
export type Hint = (p: string, tested: Json | undefined) => Json | undefined;

export function hintFor(mode: string | undefined, parents: Shell[]): Hint {
  return (p, tested) => {
    if (mode === undefined) return undefined;
    if ((literalsOf(tested) ?? []).includes(mode)) return mode;
    const declared = parents.flatMap((s) => literalsOf(props(s)[p]) ?? []);
    return declared.includes(mode) ? mode : undefined;
  };
}

/**
 * Three-valued evaluation of an `if` against what is known: true, false, or
 * undefined when the known value does not decide it. A property absent from
 * `value` is unknown (the model has yet to write it), not absent.
 */
export function decide(cond: JsonSchema, value: Json | undefined, hint: Hint): boolean | undefined {
  if (typeof cond === 'boolean') return cond;
  if (!isJsonObject(cond)) return undefined;
  const results: (boolean | undefined)[] = [];
  for (const [k, v] of Object.entries(cond)) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-')) continue;
    switch (k) {
      case 'properties':
        for (const [p, ps] of Object.entries(isJsonObject(v) ? v : {})) {
          const known = isJsonObject(value) && value[p] !== undefined ? value[p] : hint(p, ps);
          results.push(known === undefined ? undefined : decideLiteral(ps as JsonSchema, known));
        }
        break;
      case 'required':
        for (const p of asArray(v)) {
          const isKnown = typeof p === 'string' && isJsonObject(value) && value[p] !== undefined;
          const isHinted = typeof p === 'string' && hint(p, isJsonObject(cond.properties) ? cond.properties[p] : undefined) !== undefined;
          results.push(isKnown || isHinted ? true : undefined);
        }
        break;
      case 'allOf':
        results.push(and(asArray(v).map((s) => decide(s as JsonSchema, value, hint))));
        break;
      case 'anyOf':
        results.push(or(asArray(v).map((s) => decide(s as JsonSchema, value, hint))));
        break;
      case 'not': {
        const r = decide(v as JsonSchema, value, hint);
        results.push(r === undefined ? undefined : !r);
        break;
      }
      default:
        results.push(value === undefined ? undefined : decideLiteral({ [k]: v }, value));
    }
  }
  return and(results);
}

/** `const` / `enum` / `type` against a known value; any other assertion is undecided. */
export function decideLiteral(schema: JsonSchema, v: Json): boolean | undefined {
  if (typeof schema === 'boolean') return schema;
  if (!isJsonObject(schema)) return undefined;
  const results: (boolean | undefined)[] = [];
  for (const [k, s] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-')) continue;
    if (k === 'const') results.push(same(s, v));
    else if (k === 'enum') results.push(asArray(s).some((x) => same(x, v)));
    else if (k === 'type') results.push(asArray(s).some((t) => typeof t === 'string' && hasType(v, t)));
    else results.push(undefined);
  }
  return and(results);
}

export function hasType(v: Json, t: string): boolean {
  switch (t) {
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isJsonObject(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    default:
      return typeof v === t;
  }
}

export function and(rs: (boolean | undefined)[]): boolean | undefined {
  if (rs.includes(false)) return false;
  return rs.every((r) => r === true) ? true : undefined;
}

export function or(rs: (boolean | undefined)[]): boolean | undefined {
  if (rs.includes(true)) return true;
  return rs.every((r) => r === false) ? false : undefined;
}
