/**
 * A run's input against the entry phase's input contract, checked before the
 * run starts: in the editor as the input is typed, and by the server before
 * anything is recorded. The contract is the entry's `input_schema` when the
 * entry has no preprocessor (with one, the schema is what the preprocessor
 * must yield, and the kernel checks that).
 *
 * Owns: the contract lookup (from a compiled plan, or from the frontmatter as
 * the editor has it) and located errors (a JSON pointer each). Imports
 * nothing from Node.
 */
import type { ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { InputInvalidError } from '../kernel/errors';
import { linearRegExp } from '../kernel/linear-regexp';
import { useLinearFormats } from '../kernel/linear-formats';
import { withPrecompiledMeta } from '../kernel/meta-schema';
import type { JsonSchema } from '../kernel/json';
import type { Plan } from '../kernel/plan';
import { resolveSchema } from './check-schemas';
import { obj, str } from './frontmatter';

type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: unknown) => void;

export type InputError = { pointer: string; message: string };

let ajv: InstanceType<AjvCtor> | undefined;
const compiled = new Map<string, ValidateFunction | null>();
/** contracts kept compiled; past this (a long editing session types many), the cache and ajv's own start over */
const MAX_COMPILED = 200;

function validatorFor(schema: JsonSchema): ValidateFunction | null {
  const key = JSON.stringify(schema);
  if (!compiled.has(key)) {
    if (compiled.size >= MAX_COMPILED) {
      compiled.clear();
      ajv = undefined;
    }
    if (!ajv) {
      // the skill's patterns against what the user types: linear time in the browser as on the server
      ajv = withPrecompiledMeta(new Ajv2020({ allErrors: true, strict: false, code: { regExp: linearRegExp } }));
      addFormats(ajv);
      useLinearFormats(ajv);
    }
    let fn: ValidateFunction | null = null;
    try {
      fn = ajv.compile(schema as object | boolean);
    } catch {
      fn = null; // the validator reports a schema that does not compile
    }
    compiled.set(key, fn);
  }
  return compiled.get(key) ?? null;
}

export function checkInput(schema: JsonSchema, input: unknown): InputError[] {
  const fn = validatorFor(schema);
  if (!fn || fn(input)) return [];
  return (fn.errors ?? []).map((e) => {
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = `has unexpected property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    if (e.keyword === 'enum') message = `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    if (e.keyword === 'required') message = `must have property "${(e.params as { missingProperty: string }).missingProperty}"`;
    return { pointer: e.instancePath, message };
  });
}

/** The entry phase's input contract as the editor sees the frontmatter (null: none to check). */
export function inputContractOfFrontmatter(fm: Record<string, unknown> | undefined): { phase: string; schema: JsonSchema } | null {
  if (!fm) return null;
  const entry = str(fm.entry);
  if (entry === undefined) return null;
  const settings = obj(obj(fm.phases)[entry]);
  if (settings.preprocessor !== undefined || settings.input_schema === undefined) return null;
  const schema = resolveSchema(settings.input_schema, obj(fm.artifacts));
  return schema === undefined ? null : { phase: entry, schema };
}

/** The entry phase's input contract of a compiled plan (null: none to check). */
export function inputContractOfPlan(plan: Plan): { phase: string; schema: JsonSchema } | null {
  const entry = plan.phases[plan.entry];
  if (!entry || entry.preprocessor || entry.inputSchema === null) return null;
  return { phase: plan.entry, schema: entry.inputSchema };
}

/** Throws InputInvalidError (every error, by pointer) when the input breaks the entry's contract. */
export function requireInputFits(plan: Plan, input: unknown): void {
  const contract = inputContractOfPlan(plan);
  if (!contract) return;
  const errors = checkInput(contract.schema, input);
  if (errors.length) throw new InputInvalidError(contract.phase, errors);
}
