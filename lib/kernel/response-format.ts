/**
 * The schema a model is sent as `response_format` (or as the parameters of
 * its `finish` tool), derived from a phase's LLM contract.
 *
 * Owns: the projection from a full JSON Schema 2020-12 contract to the plain
 * subset that providers which enforce JSON Schema accept — objects, arrays,
 * scalars, `enum`/`const`, and `anyOf` of plain schemas. Facts the runner
 * computes from evidence (machine fields such as `outcome`, `block_reason`,
 * and any property marked `x-derived: true`) are removed, so a model is never
 * asked to copy them.
 *
 * The steps, in order, per schema level:
 *   1. `$ref` (`#`, `#/$defs/…`, any local JSON pointer) is inlined; a
 *      recursive reference is cut to `{}` at the point it recurs.
 *   2. `allOf` members are merged into the parent.
 *   3. `if/then/else` is resolved to the branch that applies when `value`
 *      (or the `mode` hint) decides the condition, and merged into the
 *      parent; when it cannot be decided, the parent becomes the union
 *      (anyOf) of parent+then and parent+else.
 *   4. `oneOf`/`anyOf` whose branches carry a discriminating `const`/`enum`
 *      property are reduced to the branch(es) that `value` (or `mode`)
 *      selects; otherwise every branch is kept. Every remaining alternative
 *      is a plain object with the parent's keywords distributed into it, so
 *      the result is "anyOf of plain objects", never a parent with a combinator.
 *   5. Machine fields are removed from `properties` and `required`; keywords
 *      providers reject are dropped (`unevaluatedProperties: false` becomes
 *      `additionalProperties: false` first, since after flattening the two mean
 *      the same); with `strict`, objects get `additionalProperties: false` and
 *      every property in `required`.
 * Identical alternatives are collapsed, so a condition that only decided a
 * machine field disappears with it.
 *
 * Invariant: pure and deterministic — the same (schema, opts) gives the same
 * output, key order included (input order, parent keys first).
 *
 * Does not: validate anything. The result is a hint for the provider; the
 * finish artifact is still validated against the full contract, which has
 * the last word. So where this projection cannot express a keyword (`not`,
 * `dependentSchemas`, a recursive `$ref`) it becomes more permissive, never
 * silently stricter than the contract — except by the documented choices:
 * branch selection from `value`/`mode`, and `strict`.
 */
import type { Json, JsonObject, JsonSchema } from './json';
import { isJsonObject } from './json';
import { decide, hintFor, selectBranches } from './response-format-conditions';
import { asArray, dedupe, same, unique, type Shell } from './response-format-shared';

export type ResponseFormatOptions = {
  /**
   * Machine-derived fields to remove. A name is a top-level property; a dotted
   * path names a nested one, with arrays passed through transparently
   * (`changed_files.path` removes `path` from the items of `changed_files`).
   */
  machineFields?: string[];
  /** what is already known of the artifact (e.g. the phase input's mode): decides conditions and branches */
  value?: JsonObject;
  /**
   * A discriminator value known from outside the artifact (the run's execution
   * mode, e.g. `edit`): it stands for whichever property `value` does not hold
   * and can take that value — never for a property that cannot.
   */
  mode?: string;
  /** for providers with strict structured outputs: closed objects, every property required */
  strict?: boolean;
};

/** Keywords dropped from the output (after their meaning was folded in, where it can be). */
const DROPPED_KEYWORDS: ReadonlySet<string> = new Set([
  'if',
  'then',
  'else',
  'not',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$schema',
  '$id',
  '$defs',
  'definitions',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
]);

/** Keywords that combine schemas at one level: flattened by `shellsOf`, never copied into a shell. */
const COMBINATORS: ReadonlySet<string> = new Set(['$ref', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else']);


/**
 * The `$ref`s a shell was expanded from. Kept beside the shell (not in it) so
 * that its children, normalized later, still know which refs they are inside
 * of; that is what cuts a recursive `$ref`.
 */
const EXPANDED_REFS = new WeakMap<object, readonly string[]>();

function refsOf(s: Shell): readonly string[] {
  return EXPANDED_REFS.get(s) ?? [];
}

function tagRefs(s: Shell, refs: readonly string[]): Shell {
  if (refs.length > 0) EXPANDED_REFS.set(s, [...new Set([...refsOf(s), ...refs])]);
  return s;
}

type MachineNode = Map<string, MachineNode | true>;

type Ctx = {
  root: JsonSchema;
  mode: string | undefined;
  strict: boolean;
  /** `$ref`s being expanded on the current path, to cut recursion */
  expanding: readonly string[];
};


export function deriveResponseFormat(schema: JsonSchema, opts: ResponseFormatOptions = {}): JsonSchema {
  const ctx: Ctx = { root: schema, mode: opts.mode, strict: opts.strict === true, expanding: [] };
  // the artifact is an object: known to be one even when nothing else is known of it
  const alternatives = normalize(schema, opts.value ?? {}, machineTree(opts.machineFields ?? []), ctx);
  if (alternatives.length === 0) return false;
  if (alternatives.length === 1) return alternatives[0];
  return { anyOf: alternatives };
}

// ---------------------------------------------------------------- normalize

/** The plain alternatives (anyOf) a schema is equivalent to, children normalized. [] = unsatisfiable. */
function normalize(schema: JsonSchema, value: Json | undefined, machine: MachineNode | undefined, ctx: Ctx): JsonObject[] {
  const out: JsonObject[] = [];
  for (const shell of shellsOf(schema, value, ctx)) {
    const done = finalize(shell, value, machine, ctx);
    if (done) out.push(done);
  }
  return dedupe(out);
}

/** Flattens the combinators of one level into plain shells (children untouched). */
function shellsOf(schema: JsonSchema, value: Json | undefined, ctx: Ctx): Shell[] {
  if (schema === true) return [{}];
  if (schema === false) return [];
  if (!isJsonObject(schema)) return [{}];

  let shells: Shell[] = [pickLevel(schema)];

  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const target = ctx.expanding.includes(ref) ? true : resolvePointer(ctx.root, ref);
    const inner = { ...ctx, expanding: [...ctx.expanding, ref] };
    // a ref we cannot resolve (not local) or that recurs: permissive, see the header
    const targetShells = shellsOf(target ?? true, value, inner).map((s) => tagRefs(s, [ref]));
    shells = cross(targetShells, shells);
  }

  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf) shells = cross(shells, shellsOf(member as JsonSchema, value, ctx));
  }

  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const decided = decide(schema.if as JsonSchema, value, hintFor(ctx.mode, shells));
    const thenShells = shellsOf((schema.then as JsonSchema | undefined) ?? true, value, ctx);
    const elseShells = shellsOf((schema.else as JsonSchema | undefined) ?? true, value, ctx);
    const branch = decided === true ? thenShells : decided === false ? elseShells : [...thenShells, ...elseShells];
    shells = cross(shells, branch);
  }

  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const branchShells = branches.flatMap((b) => shellsOf(b as JsonSchema, value, ctx));
    shells = cross(shells, selectBranches(branchShells, value, ctx.mode));
  }
  return dedupe(shells);
}

function pickLevel(schema: JsonObject): Shell {
  const out: Shell = {};
  for (const [k, v] of Object.entries(schema)) if (!COMBINATORS.has(k)) out[k] = v;
  return out;
}

/** Every pairing of an `a` shell with a `b` shell, merged; pairs that cannot both hold are dropped. */
function cross(a: Shell[], b: Shell[]): Shell[] {
  const out: Shell[] = [];
  for (const x of a) {
    for (const y of b) {
      const merged = mergeShells(x, y);
      if (merged) out.push(tagRefs(tagRefs(merged, refsOf(x)), refsOf(y)));
    }
  }
  return out;
}

/**
 * The conjunction of two shells, as one shell, or null when they contradict
 * (disjoint types or literals). `b` is the more specific (a branch): its
 * annotations and bounds win.
 */
function mergeShells(a: Shell, b: Shell): Shell | null {
  const out: Shell = { ...a };
  for (const [k, bv] of Object.entries(b)) {
    const av = out[k];
    if (av === undefined) {
      out[k] = bv;
      continue;
    }
    switch (k) {
      case 'properties':
      case 'patternProperties': {
        const merged: JsonObject = { ...(isJsonObject(av) ? av : {}) };
        for (const [p, ps] of Object.entries(isJsonObject(bv) ? bv : {})) {
          merged[p] = merged[p] === undefined || same(merged[p], ps) ? ps : { allOf: [merged[p], ps] };
        }
        out[k] = merged;
        break;
      }
      case 'required':
        out[k] = unique([...asArray(av), ...asArray(bv)]);
        break;
      case 'type': {
        const types = intersectTypes(av, bv);
        if (types.length === 0) return null;
        out[k] = types.length === 1 ? types[0] : types;
        break;
      }
      case 'additionalProperties':
      case 'items':
      case 'contains':
      case 'propertyNames':
        if (av === false || bv === false) out[k] = false;
        else if (av === true) out[k] = bv;
        else if (bv === true || same(av, bv)) out[k] = av;
        else out[k] = { allOf: [av, bv] };
        break;
      case 'const':
        if (!same(av, bv)) return null;
        break;
      case 'enum': {
        const kept = asArray(av).filter((x) => asArray(bv).some((y) => same(x, y)));
        if (kept.length === 0) return null;
        out[k] = kept;
        break;
      }
      default:
        out[k] = bv;
    }
  }
  if (out.const !== undefined && Array.isArray(out.enum)) {
    if (!out.enum.some((x) => same(x, out.const as Json))) return null;
    delete out.enum;
  }
  return out;
}

function intersectTypes(a: Json, b: Json): string[] {
  const as = asArray(a).filter((t): t is string => typeof t === 'string');
  const bs = asArray(b).filter((t): t is string => typeof t === 'string');
  const out: string[] = [];
  for (const t of as) {
    if (bs.includes(t)) out.push(t);
    else if (t === 'number' && bs.includes('integer')) out.push('integer');
    else if (t === 'integer' && bs.includes('number')) out.push('integer');
  }
  return unique(out) as string[];
}

// ---------------------------------------------------------------- finalize one shell

/** Normalizes a shell's children, removes machine fields and rejected keywords; null when unsatisfiable. */
function finalize(shell: Shell, value: Json | undefined, machine: MachineNode | undefined, outer: Ctx): JsonObject | null {
  // the shell's children are still inside the refs it was expanded from
  const ctx: Ctx = refsOf(shell).length ? { ...outer, expanding: [...outer.expanding, ...refsOf(shell)] } : outer;
  const out: JsonObject = {};
  let required = Array.isArray(shell.required) ? (shell.required.filter((r) => typeof r === 'string') as string[]) : null;

  for (const [k, v] of Object.entries(shell)) {
    if (DROPPED_KEYWORDS.has(k) || k.startsWith('x-') || k === 'required') continue;
    switch (k) {
      case 'properties': {
        const properties: JsonObject = {};
        for (const [p, ps] of Object.entries(isJsonObject(v) ? v : {})) {
          const node = machine?.get(p);
          const childValue = isJsonObject(value) ? value[p] : undefined;
          if (node === true || isDerived(ps as JsonSchema, childValue, ctx)) {
            if (required) required = required.filter((r) => r !== p);
            continue;
          }
          const child = collapse(normalize(ps as JsonSchema, childValue, node, ctx));
          if (child === false) {
            // a property that can hold no value: required makes this alternative impossible, else it is just absent
            if (required?.includes(p)) return null;
            continue;
          }
          properties[p] = child;
        }
        out[k] = properties;
        break;
      }
      case 'patternProperties': {
        const patterns: JsonObject = {};
        for (const [p, ps] of Object.entries(isJsonObject(v) ? v : {})) patterns[p] = collapse(normalize(ps as JsonSchema, undefined, undefined, ctx));
        out[k] = patterns;
        break;
      }
      case 'items':
      case 'contains':
      case 'additionalProperties':
      case 'propertyNames':
        // arrays are transparent to machine-field paths: `files.path` reaches into `files.items`
        out[k] = typeof v === 'boolean' ? v : collapse(normalize(v as JsonSchema, undefined, k === 'items' ? machine : undefined, ctx));
        break;
      case 'prefixItems':
        out[k] = asArray(v).map((s) => collapse(normalize(s as JsonSchema, undefined, machine, ctx)));
        break;
      default:
        out[k] = v;
    }
  }

  if (shell.unevaluatedProperties === false && out.additionalProperties === undefined) out.additionalProperties = false;
  if (required && required.length > 0) out.required = required;

  if (ctx.strict && isObjectSchema(out)) {
    if (out.additionalProperties === undefined || out.additionalProperties === true) out.additionalProperties = false;
    if (isJsonObject(out.properties)) out.required = Object.keys(out.properties);
  }
  return out;
}

/** `x-derived: true` on the property itself or on what its `$ref`/`allOf` resolve to. */
function isDerived(schema: JsonSchema, value: Json | undefined, ctx: Ctx): boolean {
  return shellsOf(schema, value, ctx).some((s) => s['x-derived'] === true);
}

function isObjectSchema(s: JsonObject): boolean {
  return asArray(s.type ?? null).includes('object') || isJsonObject(s.properties);
}

function collapse(alternatives: JsonObject[]): JsonSchema {
  if (alternatives.length === 0) return false;
  if (alternatives.length === 1) return alternatives[0];
  return { anyOf: alternatives };
}

// ---------------------------------------------------------------- helpers

function machineTree(paths: string[]): MachineNode {
  const root: MachineNode = new Map();
  for (const path of paths) {
    const parts = path.split('.').filter((s) => s.length > 0);
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node.set(part, true);
        return;
      }
      const next = node.get(part);
      if (next === true) return; // the whole parent is already removed
      const child: MachineNode = next ?? new Map();
      node.set(part, child);
      node = child;
    });
  }
  return root;
}

/** A local JSON pointer (`#`, `#/$defs/Name`) into the root schema; undefined when it does not resolve. */
function resolvePointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: Json = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isJsonObject(node)) node = node[key];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return typeof node === 'boolean' || isJsonObject(node) ? node : undefined;
}
