/**
 * The processor runner: preprocessors (phase start) and the postprocessor
 * (skill end) share this one runner, one step vocabulary, one on_error policy
 * and one permission gate [seed]. They differ only in what flows in, the
 * schema the result must satisfy, and where they fire.
 *
 * The runner holds a current value (a JSON object); each step returns an
 * object shallow-merged into it, or stored under `into`. on_error: `fail`
 * aborts the skill (WorkflowAbortedError — no automatic resume), `skip` logs
 * and continues, `empty` writes the empty value of the `into` target's type.
 * After the last step the value is checked against the chain's contract; a
 * mismatch aborts like a failed step.
 *
 * Owns: the chain and its policies. Does not: know what a step type does
 * (processor-steps.ts) or how it is recorded (step.ts).
 */
import { StagecraftError, WorkflowAbortedError, errorToJson } from './errors';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { ProcessorPlan, StepSpec } from './plan';
import type { RunContext } from './context';
import { lookupMemo, recordStep, type StepDef } from './step';
import { isInfrastructureError } from './faults';
import { checkSchema, formatSchemaErrors } from './schema-check';
import { executeProcessorStep, isPureStep, readsWorld, stepDefinition } from './processor-steps';

export type ChainScope = {
  /** the phase name, or `__post__` */
  phase: string;
  /** position prefix, e.g. `draft/pre` or `__post__` */
  prefix: string;
  /** human name for messages */
  label: string;
};

export async function runChain(ctx: RunContext, proc: ProcessorPlan, input: JsonObject, scope: ChainScope): Promise<JsonObject> {
  const value = await runSteps(ctx, proc.steps, input, scope.prefix, scope);
  const errors = checkSchema(proc.outputSchema, value);
  if (errors.length) {
    throw new WorkflowAbortedError(
      `${scope.label} result does not satisfy its contract: ${formatSchemaErrors(errors)}. Fix the steps so they produce what the schema requires, or relax the schema.`,
      { phase: scope.phase },
    );
  }
  return value;
}

export async function runSteps(
  ctx: RunContext,
  steps: readonly StepSpec[],
  input: JsonObject,
  prefix: string,
  scope: ChainScope,
): Promise<JsonObject> {
  let value: JsonObject = input;
  for (const step of steps) value = await runOneStep(ctx, step, value, `${prefix}/${step.index}`, scope);
  return value;
}

async function runOneStep(ctx: RunContext, step: StepSpec, value: JsonObject, position: string, scope: ChainScope): Promise<JsonObject> {
  const def: StepDef = {
    kind: 'processor',
    phase: scope.phase,
    position,
    definition: stepDefinition(step),
    input: value,
    pure: isPureStep(step),
    worldPurity: readsWorld(step),
    label: { index: step.index, type: step.type, ...(position.split('/').length > 2 ? { nested: true } : {}) },
  };
  const look = lookupMemo(ctx, def);
  let status: string;
  let output: Json;
  if (look.hit) {
    status = look.hit.status;
    output = look.hit.output;
  } else {
    ctx.faults.hit('before-step');
    const started = ctx.deps.clock.now();
    try {
      output = await executeProcessorStep(ctx, step, value, position, scope);
      status = 'ok';
    } catch (err) {
      if (isInfrastructureError(err)) throw err;
      const e = errorToJson(err);
      if (step.onError === 'fail') {
        await recordStep(ctx, { ...def, pure: false }, look, { output: { error: e }, status: 'failed' }, ctx.deps.clock.now() - started);
        const where = `${scope.label} step ${step.index} (${step.type}, skill.md line ${step.line})`;
        throw new WorkflowAbortedError(
          `${where} failed: ${e.message}`,
          { phase: scope.phase, step: step.index, stepType: step.type },
          err instanceof StagecraftError ? err : undefined,
        );
      }
      status = step.onError === 'skip' ? 'skipped' : 'empty';
      output = { error: e };
      await recordStep(ctx, def, look, { output, status }, ctx.deps.clock.now() - started);
      return applyPolicy(step, value, status);
    }
    await recordStep(ctx, def, look, { output, status }, ctx.deps.clock.now() - started);
  }
  if (status === 'skipped' || status === 'empty') return applyPolicy(step, value, status);
  return merge(step, value, output, scope);
}

function applyPolicy(step: StepSpec, value: JsonObject, status: string): JsonObject {
  if (status === 'empty' && step.into) return { ...value, [step.into]: step.emptyValue };
  return value;
}

function merge(step: StepSpec, value: JsonObject, output: Json, scope: ChainScope): JsonObject {
  if (step.into) return { ...value, [step.into]: output };
  if (step.type === 'lint_plan') return { ...value, lint: output };
  if (output === null && step.type === 'validate') return value;
  if (!isJsonObject(output)) {
    throw new WorkflowAbortedError(
      `${scope.label} step ${step.index} (${step.type}) returned ${Array.isArray(output) ? 'an array' : typeof output}, which cannot be merged into the current value; return an object or set "into:"`,
      { phase: scope.phase, step: step.index, stepType: step.type },
    );
  }
  return { ...value, ...output };
}

