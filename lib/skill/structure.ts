/**
 * The structural pass: the frontmatter checked against `skillFrontmatterSchema`
 * (the same object the editor uses), each ajv error turned into one located
 * finding that says what is wrong and what to do.
 *
 * Owns: the ajv-error → Diagnostic mapping: unknown keys at the key with a
 * "did you mean" over the keys allowed at that place, type/enum/range errors
 * at the value, missing keys at the parent's key, the step and op enums read
 * as the rules they stand for (`model_step`, `ask_user_in_processor`,
 * `unknown_op`). The invariant: the schema rejects ⇔ this pass reports at
 * least one error. Does not: cross-key rules (the check-*.ts modules).
 */
import type { ErrorObject } from 'ajv';
import { BUILTINS } from '../kernel/builtins/catalog';
import type { JsonObject } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import { OPS } from '../kernel/ops/registry';
import { PHASE_LADDER } from '../kernel/plan';
import { frontmatterValidator } from './ajv';
import type { Findings, RuleId } from './rules';
import { STEP_TYPES } from './schema';
import type { KeyPath } from './source';
import { formatPath } from './source';
import { didYouMean, suggestionSuffix } from './suggest';

/** Step types an author might reach for to call a model from a processor (`llm`, `call_model`, `prompt`, `chat`, …). */
const MODEL_STEP = /llm|model|prompt|chat|complet|generat|gpt|agent|^ai$/i;

/** JSON-pointer instance path → key path, with array indexes as numbers. */
export function pointerToPath(pointer: string, data: unknown): KeyPath {
  if (!pointer) return [];
  const out: KeyPath = [];
  let cur: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^\d+$/.test(seg)) {
      out.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      out.push(seg);
      cur = isJsonObject(cur) ? cur[seg] : undefined;
    }
  }
  return out;
}

function valueAt(data: unknown, path: KeyPath): unknown {
  let cur = data;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isJsonObject(cur)) cur = cur[String(seg)];
    else return undefined;
  }
  return cur;
}

/** `phases.draft`, or "the top level" for the root. */
export function where(path: KeyPath): string {
  return path.length === 0 ? 'the top level' : `\`${formatPath(path)}\``;
}

export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'empty (null)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer ${v}` : `the number ${v}`;
  return `${typeof v} ${String(v)}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  object: 'a mapping',
  array: 'a list',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function typeWords(t: unknown): string {
  const list = Array.isArray(t) ? t : String(t).split(',');
  return list.map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ');
}

type Ctx = { data: unknown; findings: Findings };

function isStepTypePath(path: KeyPath): boolean {
  return path.length >= 3 && path[path.length - 1] === 'type' && typeof path[path.length - 2] === 'number' && path[path.length - 3] === 'steps';
}

function isInProcessor(path: KeyPath): boolean {
  return path[0] === 'postprocessor' || (path[0] === 'phases' && path[2] === 'preprocessor');
}

function enumFinding(ctx: Ctx, e: ErrorObject, path: KeyPath): void {
  const value = valueAt(ctx.data, path);
  const allowed = ((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
  const shown = typeof value === 'string' ? `\`${value}\`` : describeValue(value);
  const last = path[path.length - 1];
  const parentKey = path.length >= 2 ? path[path.length - 2] : undefined;
  const word = typeof value === 'string' ? value : '';
  let rule: RuleId = 'invalid_value';
  let message = `${shown} is not allowed at ${where(path)}${suggestionSuffix(word, allowed)} Use one of: ${allowed.join(', ')}.`;

  if (isStepTypePath(path)) {
    if (typeof value === 'string' && MODEL_STEP.test(value) && !(STEP_TYPES as readonly string[]).includes(value)) {
      rule = 'model_step';
      message =
        `Step type \`${value}\` would call the model, and no processor step calls the model: processors are deterministic. ` +
        `Move the model work into a phase of the graph, and use only ${STEP_TYPES.join(', ')} here.`;
    } else {
      rule = 'unknown_step_type';
      message = `Unknown step type ${shown}${suggestionSuffix(word, STEP_TYPES)} A step type is one of: ${STEP_TYPES.join(', ')}.`;
    }
  } else if (last === 'op' || parentKey === 'tools' || (parentKey === 'ops' && path[0] === 'permissions')) {
    const op = typeof value === 'string' ? OPS[value] : undefined;
    if (op && op.modelOnly && last === 'op' && isInProcessor(path)) {
      rule = 'ask_user_in_processor';
      message =
        `\`${value}\` is model-only and is never allowed in a preprocessor or postprocessor step: processors run without a ` +
        'user to answer. Let the model ask in a phase (list it in that phase\'s `tools`), or remove this step.';
    } else {
      rule = 'unknown_op';
      message = `Unknown op ${shown}${suggestionSuffix(word, Object.keys(OPS))} The op registry has: ${Object.keys(OPS).join(', ')}.`;
    }
  } else if (parentKey === 'effects') {
    rule = 'unknown_effect';
    message = `Unknown effect ${shown}${suggestionSuffix(word, allowed)} Known effects: ${allowed.join(', ')}.`;
  } else if (last === 'stage') {
    rule = 'unknown_rung';
    message = `${shown} is not a rung of the phase ladder${suggestionSuffix(word, PHASE_LADDER)} Use one of: ${PHASE_LADDER.join(', ')}.`;
  }
  ctx.findings.add(rule, message, path);
}

function usesFinding(ctx: Ctx, path: KeyPath): void {
  const v = valueAt(ctx.data, path);
  if (typeof v !== 'string') {
    ctx.findings.add('wrong_type', `\`uses\` must be a string (builtin:<name> or ./file#export), but it is ${describeValue(v)}.`, path);
    return;
  }
  const names = Object.keys(BUILTINS);
  if (v.startsWith('builtin:')) {
    const name = v.slice('builtin:'.length);
    ctx.findings.add(
      'unknown_builtin',
      `There is no builtin \`${name}\`${suggestionSuffix(name, names)} Builtins: ${names.map((n) => `builtin:${n}`).join(', ')}.`,
      path,
    );
  } else if (!v.includes('#')) {
    ctx.findings.add(
      'bad_uses',
      `\`uses: ${v}\` names a file but no export: write \`${v}#<function>\` for an exported function of that module, ` +
        `or \`builtin:<name>\` for a builtin${didYouMean(v, names) ? ` (did you mean \`builtin:${didYouMean(v, names)}\`?)` : ''}.`,
      path,
    );
  } else {
    ctx.findings.add(
      'bad_uses',
      `\`uses: ${v}\` is neither builtin:<name> nor ./file#export: after \`#\` comes the name of an exported function (letters, digits, _ and $).`,
      path,
    );
  }
}

function patternFinding(ctx: Ctx, path: KeyPath, value: unknown, pattern: string, propertyName?: string): void {
  if (propertyName !== undefined) {
    // a key of `graph` (the only place with a key pattern besides artifacts)
    const keyPath = [...path, propertyName];
    const reserved = propertyName === '__post__';
    ctx.findings.add(
      'invalid_phase_name',
      reserved
        ? '`__post__` is reserved for the postprocessor pseudo-phase: choose another phase name.'
        : `Phase name \`${propertyName}\` must be a plain identifier (a letter, then letters, digits, _ or -, at most 64 characters) ` +
          'so that its `## <phase>` heading and run records name it unambiguously: rename it.',
      keyPath,
      'key',
    );
    return;
  }
  const last = path[path.length - 1];
  const shown = JSON.stringify(value);
  if (path.length === 1 && last === 'name') {
    ctx.findings.add(
      'invalid_name',
      `The skill name ${shown} must be lowercase letters, digits and _, start with a letter, and be at most 64 characters ` +
        `(^[a-z][a-z0-9_]{0,63}$)${typeof value === 'string' ? `; for example \`${suggestName(value)}\`` : ''}.`,
      path,
    );
  } else if (path[0] === 'graph' || (path[0] === 'capabilities' && last === 'name')) {
    const what = path[0] === 'graph' ? 'Phase name' : 'Capability name';
    ctx.findings.add(
      'invalid_phase_name',
      value === '__post__'
        ? '`__post__` is reserved for the postprocessor pseudo-phase: choose another phase name.'
        : `${what} ${shown} must be a plain identifier (a letter, then letters, digits, _ or -, at most 64 characters): rename it.`,
      path,
    );
  } else if (last === 'function') {
    ctx.findings.add('schema_violation', `\`function: ${String(value)}\` is not a function name: use the bare identifier (letters, digits and _).`, path);
  } else {
    ctx.findings.add('schema_violation', `${shown} at ${where(path)} does not match the pattern ${pattern}: correct the value.`, path);
  }
}

/** A plausible valid skill name from an invalid one, for the message. */
function suggestName(v: string): string {
  const s = v
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, 64);
  return s || 'my_skill';
}

function rangeFinding(ctx: Ctx, e: ErrorObject, path: KeyPath): void {
  const parent = (e.parentSchema ?? {}) as JsonObject;
  const value = valueAt(ctx.data, path);
  const lo = parent.minimum ?? parent.exclusiveMinimum;
  const hi = parent.maximum ?? parent.exclusiveMaximum;
  const range = lo !== undefined && hi !== undefined ? ` (allowed: ${String(lo)}..${String(hi)})` : '';
  const { comparison, limit } = e.params as { comparison: string; limit: number };
  ctx.findings.add('out_of_range', `${where(path)} must be ${comparison} ${limit}, but it is ${String(value)}${range}: use a value in range.`, path);
}

/**
 * A key's description up to its first sentence's end, without the full stop: the rest (RE2 rules,
 * defaults) is the schema's reference text, which hover and the docs show, not a "missing" message.
 * A sentence ends at a full stop followed by a capital (so `e.g. ./x` does not end one).
 */
function firstSentence(description: string): string {
  return (/^(.+?)\.\s+(?=[A-Z])/s.exec(description)?.[1] ?? description).replace(/\.$/, '');
}

function requiredFinding(ctx: Ctx, e: ErrorObject, path: KeyPath): void {
  const missing = (e.params as { missingProperty: string }).missingProperty;
  const props = ((e.parentSchema as JsonObject | undefined)?.properties ?? {}) as Record<string, JsonObject>;
  const desc = typeof props[missing]?.description === 'string' ? ` (${firstSentence(String(props[missing].description))})` : '';
  let message = `${path.length === 0 ? 'The frontmatter' : where(path)} is missing the required key \`${missing}\`${desc}: add it.`;
  if (missing === 'type' && typeof path[path.length - 1] === 'number') {
    message = `This step has no \`type\`: add \`type:\` with one of ${STEP_TYPES.join(', ')}.`;
  }
  ctx.findings.add('missing_key', message, [...path, missing], 'key');
}

function additionalFinding(ctx: Ctx, e: ErrorObject, path: KeyPath): void {
  const key = (e.params as { additionalProperty: string }).additionalProperty;
  const allowed = Object.keys(((e.parentSchema as JsonObject | undefined)?.properties ?? {}) as JsonObject);
  const suggestion = didYouMean(key, allowed);
  const tail = suggestion
    ? ` — did you mean \`${suggestion}\`?`
    : allowed.length
      ? `; the keys allowed here are: ${allowed.join(', ')}. Remove it or rename it.`
      : '; no keys are allowed here. Remove it.';
  ctx.findings.add('unknown_key', `Unknown key \`${key}\` at ${where(path)}${tail}`, [...path, key], 'key');
}

function oneFinding(ctx: Ctx, e: ErrorObject): void {
  const path = pointerToPath(e.instancePath, ctx.data);
  const value = valueAt(ctx.data, path);
  const propertyName = (e as ErrorObject & { propertyName?: string }).propertyName;
  switch (e.keyword) {
    case 'additionalProperties':
      return additionalFinding(ctx, e, path);
    case 'required':
      return requiredFinding(ctx, e, path);
    case 'type':
      return ctx.findings.add(
        'wrong_type',
        `${where(path)} must be ${typeWords((e.params as { type: unknown }).type)}, but it is ${describeValue(value)}: change the value.`,
        path,
      );
    case 'enum':
      return enumFinding(ctx, e, path);
    case 'anyOf':
      if (path[0] === 'capabilities' && path[path.length - 1] === 'uses') return usesFinding(ctx, path);
      return ctx.findings.add('schema_violation', `${where(path)} does not match any allowed form: ${e.message ?? ''}.`, path);
    case 'pattern':
      return patternFinding(ctx, path, value, String((e.params as { pattern: string }).pattern), propertyName);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return rangeFinding(ctx, e, path);
    case 'uniqueItems': {
      const { i, j } = e.params as { i: number; j: number };
      const item = Array.isArray(value) ? value[Math.max(i, j)] : undefined;
      return ctx.findings.add(
        'duplicate_item',
        `${typeof item === 'string' ? `\`${item}\`` : 'An item'} appears twice in ${where(path)} (items ${Math.min(i, j)} and ${Math.max(i, j)}): remove the repeat.`,
        [...path, Math.max(i, j)],
      );
    }
    case 'minProperties':
      if (path.length === 1 && path[0] === 'graph') {
        return ctx.findings.add('too_short', '`graph` has no phases: map at least one phase to its successors, e.g. `draft: []`.', path);
      }
      return ctx.findings.add('too_short', `${where(path)} is empty: give at least one entry.`, path);
    case 'minLength':
    case 'minItems':
      return ctx.findings.add('too_short', `${where(path)} is empty: give a value.`, path);
    default:
      return ctx.findings.add('schema_violation', `${where(path)} ${e.message ?? 'is invalid'}: correct the value.`, path);
  }
}

/**
 * Validates the frontmatter value against the schema and adds one finding per
 * problem. Returns whether the schema accepted it.
 */
export function checkStructure(data: unknown, findings: Findings): boolean {
  const validate = frontmatterValidator();
  if (validate(data)) return true;
  const errors = validate.errors ?? [];
  // `if` errors only summarise a failed `then`; the branch errors of an
  // anyOf are folded into the anyOf's one finding; a propertyNames wrapper
  // repeats its inner error.
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.instancePath}|${e.schemaPath}/`);
  const kept = errors.filter((e) => {
    if (e.keyword === 'if' || e.keyword === 'propertyNames') return false;
    return !anyOfPaths.some((p) => `${e.instancePath}|${e.schemaPath}`.startsWith(p));
  });
  // a propertyNames wrapper whose inner errors were all dropped still counts
  for (const e of errors) {
    if (e.keyword !== 'propertyNames') continue;
    const name = (e.params as { propertyName: string }).propertyName;
    const covered = kept.some((k) => (k as ErrorObject & { propertyName?: string }).propertyName === name && k.instancePath === e.instancePath);
    if (!covered) kept.push({ ...e, keyword: 'pattern', params: { pattern: '' }, propertyName: name } as ErrorObject);
  }
  const ctx: Ctx = { data, findings };
  for (const e of kept) oneFinding(ctx, e);
  return false;
}
