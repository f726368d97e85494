/**
 * Fork points and edited values: what a position names, how `--set PATH=JSON`
 * changes a value, and the check an edited value must pass before anything
 * of the fork runs.
 *
 * A fork point is one of:
 * - `input` — the run input (the whole run then runs live);
 * - a phase start, `draft` or `draft#2` — the phase's input;
 * - `__post__` — the postprocessor's start: the finish artifact;
 * - a step position (`draft/r2/model`, `draft/r1/tool/0`,
 *   `draft/r1/pre-tool/path_guard`, `draft/pre/0`, `__post__/3`) — the step's
 *   output: a model turn, a tool outcome, a stage's contribution, a processor
 *   step's result;
 * - a step position + `/input` — what the step is given: a tool call's
 *   arguments, a processor step's input. `…/pre-tool/<i>` is the arguments of
 *   tool call i (as the pre-tool stages left them), `…/post-tool/<i>` its
 *   outcome (as the post-tool stages see it).
 *
 * Without an edit, the step at the point runs again, live ("rerun from here").
 *
 * Owns: that grammar, path edits and the checks. Does not: apply an edit to a
 * run (recording.ts) or find the value a point holds (fork-probe.ts).
 */
import { ForkPointError } from './errors';
import type { Json, JsonObject, JsonSchema } from './json';
import { isJsonObject } from './json';
import { POST_PHASE } from './plan';
import { checkSchema, formatSchemaErrors, type SchemaError } from './schema-check';
import { parsePath } from './value-path';

/** `input`: the step's input is edited; `output`: its output is; `rerun`: nothing is, the step at the point runs again */
export type ForkTarget = 'input' | 'output' | 'rerun';

/** Where a fork departs from its parent, and the edited value there (absent: no edit). */
export type ForkPoint = { at: string; target: ForkTarget; value?: Json };

export const RUN_INPUT_POINT = 'input';

/**
 * An edited value's check: the value as the kernel will use it (a model turn filled in) and what is
 * wrong with it (empty: it fits). `schemaErrors`: the schema's own errors among those, each at its JSON
 * pointer into the value as it was edited (a turn's finish under `/finish`), so the text the value was
 * typed in can be pointed at (`--value FILE:line:col`). `schema`: the JSON Schema it checks against,
 * where there is one, so an editor can check as the value is typed (the check still decides).
 */
export type EditCheck = ((value: Json) => { value: Json; errors: string[]; schemaErrors?: SchemaError[] }) & { schema?: JsonSchema | null };

export type ParsedPosition = { at: string; target: 'input' | 'output' };

/** A position as the user names it → the kernel's position and which side of the step is meant. */
export function parseForkPosition(raw: string): ParsedPosition {
  // trailing slashes counted back from the end: /\/+$/ tries every slash of every run and reads each run to its end,
  // so a position of 80,000 slashes (a request body's `at`) held the server 10 s
  const trimmed = raw.trim();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '/') end--;
  const p = trimmed.slice(0, end);
  if (p === '') throw new ForkPointError('fork_point_unknown', 'The fork point is empty: name a position of the run (e.g. draft/r2/model, __post__/3, a phase name, or input).');
  const tool = /^(.*)\/(pre|post)-tool\/(\d+)$/.exec(p);
  if (tool) return { at: `${tool[1]}/tool/${tool[3]}`, target: tool[2] === 'pre' ? 'input' : 'output' };
  if (p.endsWith('/input')) return { at: p.slice(0, -'/input'.length), target: 'input' };
  // the run input, a phase start and the postprocessor's start are where a value flows in
  if (p === RUN_INPUT_POINT || p === POST_PHASE || !p.includes('/')) return { at: p, target: 'input' };
  return { at: p, target: 'output' };
}

/** A point with its edit, or a rerun from it when there is none. */
export function forkPointOf(raw: string, value: Json | undefined): ForkPoint {
  const { at, target } = parseForkPosition(raw);
  return value === undefined ? { at, target: 'rerun' } : { at, target, value };
}

/** The position as shown and recorded (`__post__/3/input`, `draft/r1/tool/0`). */
export function forkPointName(p: ForkPoint, asked: ParsedPosition): string {
  return asked.target === 'input' && p.at.includes('/') ? `${p.at}/input` : p.at;
}

// ---------------------------------------------------------------- --set PATH=JSON

/**
 * `a.b[0]`, `$.a.b[0]`, `/a/b/0` (a JSON pointer), or `$` / `.` / `` for the whole value. `name` is
 * what the caller calls an edit in its errors: the CLI's flag `--set`, the API's field `set`.
 */
export function editPath(p: string, name = '--set'): (string | number)[] {
  const s = p.trim();
  if (s === '' || s === '$' || s === '.' || s === '/') return [];
  if (s.startsWith('/')) {
    return s
      .slice(1)
      .split('/')
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
  }
  const rest = s.replace(/^\$\.?/, '');
  // parsePath skips what it cannot read: a path it would half-read ("[[[", "items[", "[0") edits another part, or the whole value
  if (!PATH_SYNTAX.test(rest)) {
    throw new ForkPointError('fork_edit_invalid', `${name} ${p}: not a path — write a.b[0] (or $.a.b[0]), a JSON pointer /a/b/0, or $ for the whole value.`, { path: p });
  }
  return parsePath(rest);
}

/** keys and [index]es joined by dots: `a`, `a.b[0]`, `[2].c`, `a[0][1]` */
const PATH_SYNTAX = /^(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*$/;

/** A copy of `value` with the value at `path` set (objects and arrays on the way are copied, never changed); `name` as for editPath. */
export function setAtPath(value: Json, path: string, next: Json, name = '--set'): Json {
  const segs = editPath(path, name);
  const set = (cur: Json | undefined, i: number): Json => {
    if (i === segs.length) return next;
    const raw = segs[i];
    // `items.0` names an index as `items[0]` does, where the value is an array
    const seg = Array.isArray(cur) && typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof seg === 'number' && Array.isArray(cur)) {
      if (seg > cur.length) throw new ForkPointError('fork_edit_invalid', `${name} ${path}: index ${seg} is past the end of an array of ${cur.length}.`, { path });
      const copy = cur.slice();
      copy[seg] = set(cur[seg], i + 1);
      return copy;
    }
    if (cur !== undefined && cur !== null && !isJsonObject(cur)) {
      const at = segs.slice(0, i).join('.') || '(the value)';
      throw new ForkPointError('fork_edit_invalid', `${name} ${path}: ${at} is ${Array.isArray(cur) ? 'an array' : typeof cur}, so it has no ${JSON.stringify(seg)}.`, { path });
    }
    const obj: JsonObject = isJsonObject(cur) ? { ...cur } : {};
    obj[String(seg)] = set(obj[String(seg)], i + 1);
    return obj;
  };
  return set(value, 0);
}

// ---------------------------------------------------------------- checks

export const anyValue: EditCheck = (value) => ({ value, errors: [] });

export function objectCheck(what: string, schema?: JsonSchema | null): EditCheck {
  const check: EditCheck = (value) => {
    if (!isJsonObject(value)) return { value, errors: [`${what} must be a JSON object, not ${describe(value)}`] };
    const errors = schema ? checkSchema(schema, value) : [];
    return errors.length ? { value, errors: [`${what} does not satisfy its schema: ${formatSchemaErrors(errors)}`], schemaErrors: errors } : { value, errors: [] };
  };
  return Object.assign(check, { schema: schema ?? null });
}

const TURN_KEYS = ['text', 'toolCalls', 'finish', 'usage'];

/** A model turn as the user may write it (`{finish: {...}}` alone is a turn): filled in, and checked. */
export const modelTurnCheck: EditCheck = (value) => {
  if (!isJsonObject(value)) return { value, errors: [`a model turn must be a JSON object ({text, toolCalls, finish}), not ${describe(value)}`] };
  const errors: string[] = [];
  // a key a turn does not have would be dropped without a word: the edit it holds would change nothing
  const finishKeys = isJsonObject(value.finish) ? value.finish : {};
  for (const key of Object.keys(value).filter((k) => !TURN_KEYS.includes(k))) {
    const hint = Object.prototype.hasOwnProperty.call(finishKeys, key) ? ` — the finish artifact's ${key} is finish.${key}` : '';
    errors.push(`${key} is not part of a model turn (${TURN_KEYS.join(', ')}), so editing it would change nothing${hint}`);
  }
  const text = value.text ?? '';
  if (typeof text !== 'string') errors.push('text must be a string');
  const calls = value.toolCalls ?? [];
  const toolCalls: Json[] = [];
  if (!Array.isArray(calls)) errors.push('toolCalls must be an array of {op, args}');
  else {
    calls.forEach((c, i) => {
      if (!isJsonObject(c) || typeof c.op !== 'string' || (c.args !== undefined && !isJsonObject(c.args))) {
        errors.push(`toolCalls[${i}] must be {op: string, args: object}`);
        return;
      }
      toolCalls.push({ id: typeof c.id === 'string' ? c.id : `call_edit_${i}`, op: c.op, args: (c.args ?? {}) as JsonObject });
    });
  }
  const finish = value.finish ?? null;
  if (finish !== null && !isJsonObject(finish)) errors.push(`finish must be a JSON object (the finish artifact) or null, not ${describe(finish)}`);
  const turn: JsonObject = { text: typeof text === 'string' ? text : '', toolCalls, finish };
  if (isJsonObject(value.usage)) turn.usage = value.usage;
  return { value: turn, errors };
};

/**
 * What a model turn's finish is held to at its phase: the phase's output schema, less the fields the
 * kernel derives itself (it overrides what a turn writes there). Null where a finalize stage may still
 * patch the finish before the kernel checks it: then only the kernel's own check can tell.
 */
export type FinishContract = { phase: string; schema: JsonSchema; derived: string[] } | null;

/**
 * A model turn at a phase's round: its shape, and a finish (a turn that calls no tools) held to the
 * phase's contract as the model's own finish is — before anything runs, rather than after: the kernel
 * would reject it and ask the model again, and the edit would be thrown away for a live round.
 */
export function modelTurnCheckFor(contract: FinishContract): EditCheck {
  if (!contract) return modelTurnCheck;
  return (value) => {
    const checked = modelTurnCheck(value);
    const turn = checked.value;
    if (checked.errors.length || !isJsonObject(turn) || !isJsonObject(turn.finish) || (Array.isArray(turn.toolCalls) && turn.toolCalls.length > 0)) return checked;
    const finish: JsonObject = { ...turn.finish };
    for (const field of contract.derived) delete finish[field];
    const errors = checkSchema(withoutFields(contract.schema, contract.derived), finish);
    if (errors.length === 0) return checked;
    return {
      value: turn,
      errors: [`finish does not satisfy the output schema of phase ${contract.phase}, the contract the model's own finish is held to: ${formatSchemaErrors(errors)}`],
      schemaErrors: errors.map((e) => ({ ...e, pointer: `/finish${e.pointer}` })),
    };
  };
}

function withoutFields(schema: JsonSchema, fields: string[]): JsonSchema {
  if (fields.length === 0 || !isJsonObject(schema)) return schema;
  const out: JsonObject = { ...schema };
  if (isJsonObject(schema.properties)) out.properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => !fields.includes(k)));
  if (Array.isArray(schema.required)) out.required = schema.required.filter((k) => !fields.includes(String(k)));
  return out as JsonSchema;
}

/** The result of a processor step as its chain can take it (merged, stored under `into`, a validate's null). */
export function processorOutputCheck(definition: Json): EditCheck {
  const d = isJsonObject(definition) ? definition : {};
  if (d.into || d.type === 'lint_plan') return anyValue;
  return (value) => {
    if (value === null && d.type === 'validate') return { value, errors: [] };
    return isJsonObject(value) ? { value, errors: [] } : { value, errors: [`the result of a ${String(d.type)} step is merged into the current value, so it must be a JSON object, not ${describe(value)}`] };
  };
}

/** The check for a step's recorded output, by kind (a stage's value is its contribution; a model turn's finish, its phase's `contract`). */
export function stepOutputCheck(kind: string, definition: Json, contract: FinishContract = null): EditCheck {
  switch (kind) {
    case 'model':
      return modelTurnCheckFor(contract);
    case 'stage':
      return objectCheck("a stage's contribution");
    case 'processor':
      return processorOutputCheck(definition);
    default:
      return anyValue; // a tool outcome is any JSON (text for most ops)
  }
}

function describe(v: Json | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : typeof v;
}
