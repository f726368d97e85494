/**
 * What each processor step type does: `validate`, `run_op`, `iterate`,
 * `lint_plan`, `python`, `node`. Each returns the step's result (merged or
 * stored by the chain runner) or throws a typed error.
 *
 * Purity, which decides group commit (see step.ts): validate and lint_plan
 * are pure; iterate is pure when all its steps are; a code step is pure only
 * when it declares `pure: true`; run_op is pure only for read ops.
 *
 * Owns: step semantics. Does not: apply on_error or record (processors.ts).
 */
import { StepFailedError } from './errors';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { CodeStep, StepSpec } from './plan';
import type { RunContext } from './context';
import type { CodeCall, PreparedCall } from './ports';
import { checkSchema } from './schema-check';
import { getPath, renderTemplate, requirePath } from './value-path';
import { pendingForkPoint } from './recording';
import { dispatchOp, forkedArgs } from './ops/dispatch';
import { getOp } from './ops/registry';
import type { ChainScope } from './processors';
import { runSteps } from './processors';
import { jsonChars, MAX_VALUE_CHARS, rememberBound, rememberChars, tooLarge, valueChars } from './value-size';
import { callOptions } from './step';

const READ_OPS = new Set(['file/read', 'workspace/read', 'http/get']);

export function isPureStep(step: StepSpec): boolean {
  switch (step.type) {
    case 'validate':
    case 'lint_plan':
      return true;
    case 'iterate':
      return step.steps.every(isPureStep);
    case 'python':
    case 'node':
      return step.pure;
    case 'run_op':
      return READ_OPS.has(step.op);
  }
}

/** A step that reads the world (a world-purity op, or an iterate over one) is re-executed on resume. */
export function readsWorld(step: StepSpec): boolean {
  if (step.type === 'run_op') return getOp(step.op)?.worldPurity ?? false;
  if (step.type === 'iterate') return step.steps.some(readsWorld);
  return false;
}

const DEFINITIONS = new WeakMap<StepSpec, Json>();
/**
 * Code steps' definitions by content: a chain of many steps calling the same function shares one
 * definition object, so its hash (memo.ts definitionHash) and its size are worked out once, not
 * once per step. Few and small (one per distinct module/function/into/pure of the skills run).
 */
const CODE_DEFINITIONS = new Map<string, Json>();

/** What identifies a step at its position (compared on resume); built once per step spec. */
export function stepDefinition(step: StepSpec): Json {
  let d = DEFINITIONS.get(step);
  if (d === undefined) {
    d = step.type === 'python' || step.type === 'node' ? codeDefinition(step) : measured(buildDefinition(step));
    DEFINITIONS.set(step, d);
  }
  return d;
}

/** a definition is measured once, where it is built: every record of the step carries it (journal.ts unitChars) — an op's args, a schema */
function measured(d: Json): Json {
  rememberChars(d as object);
  return d;
}

function codeDefinition(step: CodeStep): Json {
  const k = JSON.stringify([step.type, step.module, step.function, step.into ?? null, step.pure]);
  let d = CODE_DEFINITIONS.get(k);
  if (d === undefined) {
    d = measured(buildDefinition(step));
    CODE_DEFINITIONS.set(k, d);
  }
  return d;
}

function buildDefinition(step: StepSpec): Json {
  switch (step.type) {
    case 'validate':
      return { type: step.type, schema: step.schema, path: step.path ?? null, into: step.into ?? null };
    case 'run_op':
      return { type: step.type, op: step.op, args: step.args, into: step.into ?? null };
    case 'iterate':
      return { type: step.type, over: step.over, into: step.into, steps: step.steps.map(buildDefinition) };
    case 'lint_plan':
      return { type: step.type, plan: step.plan, rules: step.rules, into: step.into ?? null };
    case 'python':
    case 'node':
      return { type: step.type, module: step.module, function: step.function, into: step.into ?? null, pure: step.pure };
  }
}

export async function executeProcessorStep(
  ctx: RunContext,
  step: StepSpec,
  value: JsonObject,
  position: string,
  scope: ChainScope,
): Promise<Json> {
  switch (step.type) {
    case 'validate': {
      const target = step.path ? requirePath(value, step.path, 'validate') : value;
      const errors = checkSchema(step.schema, target);
      if (errors.length) {
        throw new StepFailedError(
          'validation_failed',
          `validate${step.schemaName ? ` (${step.schemaName})` : ''}: ${errors.map((e) => `${step.path ? `/${step.path}` : ''}${e.pointer === '/' ? '' : e.pointer} ${e.message}`).join('; ')}`,
          { errors: errors as unknown as Json },
        );
      }
      return null;
    }
    case 'run_op': {
      const args = renderTemplate(step.args, value, `run_op ${step.op}`);
      if (!isJsonObject(args)) throw new StepFailedError('op_bad_args', `run_op ${step.op}: args must be an object`);
      return dispatchOp(ctx, {
        op: step.op,
        args: pendingForkPoint(ctx) !== null ? await forkedArgs(ctx, step.op, `${position}/op`, args) : args,
        caller: { kind: 'processor', phase: scope.phase },
        position: `${position}/op`,
      });
    }
    case 'iterate': {
      const arr = requirePath(value, step.over, 'iterate');
      if (!Array.isArray(arr)) throw new StepFailedError('not_an_array', `iterate: "${step.over}" is ${typeof arr}, not an array`);
      const results: Json[] = [];
      // what the results add up to, checked as they come: a run that gathers too much stops at the element that passes the cap
      let chars = 2;
      for (let i = 0; i < arr.length; i++) {
        const el = arr[i];
        const elValue: JsonObject = isJsonObject(el) ? el : { value: el };
        // the nested steps' records name the array they iterate, so the fold knows each element's value
        const result = await runSteps(ctx, step.steps, elValue, `${position}/${i}`, { ...scope, overs: [...(scope.overs ?? []), step.over] });
        results.push(result);
        chars += valueChars(result) + 1;
        if (chars > MAX_VALUE_CHARS && (chars = jsonChars(results, MAX_VALUE_CHARS)) > MAX_VALUE_CHARS) {
          throw tooLarge(`iterate: the results of its first ${i + 1} of ${arr.length} elements hold`);
        }
      }
      rememberBound(results, chars);
      return results;
    }
    case 'lint_plan': {
      const findings = lintPlan(ctx, getPath(value, step.plan), step.rules);
      const errors = findings.filter((f) => f.severity === 'error');
      if (errors.length) {
        throw new StepFailedError('lint_failed', `lint_plan: ${errors.map((f) => `[${f.index}] ${f.message}`).join('; ')}`, {
          findings: findings as unknown as Json,
        });
      }
      return findings as unknown as Json;
    }
    case 'python':
    case 'node':
      return ctx.deps.sandbox.call(codeCall(step, value), callOptions(ctx));
  }
}

const codeCall = (step: CodeStep, value: JsonObject): CodeCall => ({
  language: step.type,
  modulePath: step.modulePath,
  exportName: step.function,
  input: value,
  timeoutMs: step.timeoutMs,
});

/**
 * A code step's call worked out before the step may start (CodeSandbox.prepare): while the commit
 * before it travels. Started, it is what executeProcessorStep would call; null for any other step,
 * or a sandbox that cannot prepare one.
 */
export function prepareCodeCall(ctx: RunContext, step: StepSpec, value: JsonObject): PreparedCall | null {
  if ((step.type !== 'python' && step.type !== 'node') || !ctx.deps.sandbox.prepare) return null;
  return ctx.deps.sandbox.prepare(codeCall(step, value), callOptions(ctx));
}

export type LintFinding = { index: number; op: string | null; rule: string; severity: 'error' | 'warning'; message: string };

export const LINT_RULES = ['plan_shape', 'op_exists', 'op_permitted', 'processor_safe', 'args_valid'] as const;

/** Static check of a plan (a list of `{op, args}`) against the registry and the gate, without running it. */
export function lintPlan(ctx: RunContext, plan: Json | undefined, rules: readonly string[]): LintFinding[] {
  const on = (r: string) => rules.length === 0 || rules.includes(r);
  const out: LintFinding[] = [];
  if (!Array.isArray(plan)) {
    return [{ index: -1, op: null, rule: 'plan_shape', severity: 'error', message: `the plan must be a list of {op, args}, got ${plan === undefined ? 'nothing' : typeof plan}` }];
  }
  plan.forEach((item, index) => {
    if (!isJsonObject(item) || typeof item.op !== 'string') {
      if (on('plan_shape')) out.push({ index, op: null, rule: 'plan_shape', severity: 'error', message: 'each entry needs a string "op"' });
      return;
    }
    const op = item.op;
    const def = getOp(op);
    if (!def) {
      if (on('op_exists')) out.push({ index, op, rule: 'op_exists', severity: 'error', message: `op "${op}" does not exist` });
      return;
    }
    if (on('processor_safe') && def.modelOnly) {
      out.push({ index, op, rule: 'processor_safe', severity: 'error', message: `op "${op}" is model-only and may not run in a processor` });
    }
    if (on('op_permitted')) {
      if (!ctx.plan.permittedOps.has(op)) out.push({ index, op, rule: 'op_permitted', severity: 'error', message: `op "${op}" is not in permissions.ops` });
      const missing = def.effects.filter((e) => !ctx.plan.effectGrants.has(e));
      if (missing.length) out.push({ index, op, rule: 'op_permitted', severity: 'error', message: `op "${op}" needs ungranted effects: ${missing.join(', ')}` });
    }
    if (on('args_valid')) {
      for (const e of checkSchema(def.args, item.args ?? {})) {
        out.push({ index, op, rule: 'args_valid', severity: 'error', message: `args${e.pointer === '/' ? '' : e.pointer} ${e.message}` });
      }
    }
  });
  return out;
}
