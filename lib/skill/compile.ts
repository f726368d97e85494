/**
 * Compiling a valid skill.md into the kernel's `Plan`: everything resolved so
 * the kernel never re-reads skill.md — schema names replaced by schemas,
 * module paths absolute, defaults filled in, stages in ladder order.
 *
 * Owns: the defaults (max_rounds 8, timeout_ms 10000, pure false, on_error
 * fail, lint_plan into `lint`, a non-terminal phase's output `{type:object}`,
 * a builtin's effects and `with` defaults), phase order (breadth-first from
 * entry), the stage program order (rung, then declaration), and each step's
 * `emptyValue` (the empty value of its `into` target's type in the schema
 * the chain must satisfy). Does not: validate — it compiles only what
 * validate.ts passed with no error, and throws SkillValidationError otherwise.
 * Node-only (sha256 and absolute paths); validation is not.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Diagnostic } from '../kernel/errors';
import { SkillValidationError } from '../kernel/errors';
import type { Json, JsonObject, JsonSchema } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import type { PhasePlan, Plan, ProcessorPlan, Rung, StageSpec, StepSpec } from '../kernel/plan';
import { PHASE_LADDER } from '../kernel/plan';
import { builtinOf, splitUses, stageEffects } from './check-capabilities';
import { resolveSchema } from './check-schemas';
import type { CapabilitySource, Frontmatter, StepSource } from './frontmatter';
import { has } from './frontmatter';
import { DEFAULT_MAX_ROUNDS, DEFAULT_STEP_TIMEOUT_MS } from './schema';
import type { FrontmatterSource, KeyPath } from './source';
import type { ValidateOptions } from './validate';
import { analyzeSkill } from './validate';

const ANY_OBJECT: JsonSchema = { type: 'object' };
const EMPTY_BY_TYPE: Record<string, Json> = { string: '', array: [], object: {}, number: 0, integer: 0, boolean: false, null: null };

/** Follows a local `$ref` (`#/$defs/x`) inside `root`, once per hop, a few hops at most. */
function deref(node: unknown, root: JsonSchema): unknown {
  let cur = node;
  for (let hops = 0; hops < 8 && isJsonObject(cur) && typeof cur.$ref === 'string' && cur.$ref.startsWith('#'); hops++) {
    const pointer = cur.$ref.slice(1);
    let target: unknown = root;
    for (const raw of pointer.split('/').slice(1)) {
      const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isJsonObject(target) ? target[seg] : Array.isArray(target) ? target[Number(seg)] : undefined;
    }
    cur = target;
  }
  return cur;
}

/** The schema of `key` (a key or a dotted path) inside an object schema. */
function propertySchema(schema: JsonSchema | undefined, key: string): unknown {
  if (schema === undefined) return undefined;
  let cur: unknown = schema;
  for (const seg of key.split('.')) {
    cur = deref(cur, schema);
    const props = isJsonObject(cur) && isJsonObject(cur.properties) ? cur.properties : undefined;
    cur = props ? props[seg] : undefined;
  }
  return deref(cur, schema);
}

/**
 * The empty value of the `into` target's schema type: "", [], {}, 0, false,
 * else null. A type list that allows null yields null.
 */
export function emptyValueFor(chainSchema: JsonSchema | undefined, into: string | undefined): Json {
  if (into === undefined) return null;
  const target = propertySchema(chainSchema, into);
  if (!isJsonObject(target)) return null;
  const types = Array.isArray(target.type) ? target.type : target.type === undefined ? [] : [target.type];
  if (types.length === 0 || types.includes('null')) return null;
  const empty = EMPTY_BY_TYPE[String(types[0])];
  return empty === undefined ? null : structuredClone(empty);
}

type Compiling = { fm: Frontmatter; source: FrontmatterSource; bundleDir: string; artifacts: Record<string, JsonSchema> };

function schemaOf(c: Compiling, value: unknown): JsonSchema {
  return resolveSchema(value, c.artifacts) ?? ANY_OBJECT;
}

function compileSteps(c: Compiling, steps: StepSource[], at: KeyPath, chainSchema: JsonSchema | undefined): StepSpec[] {
  return steps.map((s, index): StepSpec => {
    const stepPath = [...at, index];
    const into = s.type === 'lint_plan' ? (s.into ?? 'lint') : s.into;
    const common = {
      index,
      onError: s.on_error ?? 'fail',
      ...(into !== undefined ? { into } : {}),
      emptyValue: emptyValueFor(chainSchema, into),
      line: c.source.lineOf(stepPath),
    };
    switch (s.type) {
      case 'validate':
        return {
          ...common,
          type: 'validate',
          schema: schemaOf(c, s.schema),
          ...(typeof s.schema === 'string' ? { schemaName: s.schema } : {}),
          ...(s.path !== undefined ? { path: s.path } : {}),
        };
      case 'run_op':
        return { ...common, type: 'run_op', op: s.op as string, args: s.args ?? {} };
      case 'iterate': {
        const items = propertySchema(chainSchema, s.into as string);
        const elementSchema = isJsonObject(items) ? (deref(items.items, chainSchema as JsonSchema) as JsonSchema | undefined) : undefined;
        return {
          ...common,
          type: 'iterate',
          over: s.over as string,
          into: s.into as string,
          steps: compileSteps(c, s.steps ?? [], [...stepPath, 'steps'], isJsonObject(elementSchema) || typeof elementSchema === 'boolean' ? elementSchema : undefined),
        };
      }
      case 'lint_plan':
        return { ...common, type: 'lint_plan', plan: s.plan as string, rules: s.rules ?? [] };
      default:
        return {
          ...common,
          type: s.type as 'python' | 'node',
          module: s.module as string,
          modulePath: path.resolve(c.bundleDir, s.module as string),
          function: s.function as string,
          timeoutMs: s.timeout_ms ?? DEFAULT_STEP_TIMEOUT_MS,
          pure: s.pure ?? false,
        };
    }
  });
}

function processor(c: Compiling, steps: StepSource[], at: KeyPath, outputSchema: JsonSchema): ProcessorPlan {
  return { steps: compileSteps(c, steps, at, outputSchema), outputSchema };
}

/** A builtin's `with` defaults (top-level `default`s of its options schema) under the declared options. */
function withDefaults(cap: CapabilitySource): JsonObject {
  const declared = cap.with ?? {};
  if (!cap.uses.startsWith('builtin:')) return declared;
  const def = builtinOf(cap.uses);
  const props = def && isJsonObject(def.with) && isJsonObject(def.with.properties) ? def.with.properties : {};
  const out: JsonObject = {};
  for (const [k, p] of Object.entries(props)) if (isJsonObject(p) && p.default !== undefined) out[k] = p.default;
  return { ...out, ...declared };
}

function stage(c: Compiling, cap: CapabilitySource, index: number): StageSpec {
  const binding: StageSpec['binding'] = cap.uses.startsWith('builtin:')
    ? { kind: 'builtin', name: cap.uses.slice('builtin:'.length) }
    : (() => {
        const { module, exportName } = splitUses(cap.uses);
        return { kind: 'module', module, modulePath: path.resolve(c.bundleDir, module), exportName };
      })();
  return {
    name: cap.name,
    capability: cap.name,
    rung: cap.stage as Rung,
    binding,
    effects: stageEffects(cap as unknown as Record<string, unknown>),
    with: withDefaults(cap),
    line: c.source.lineOf(['capabilities', index]),
  };
}

export type CompileOptions = ValidateOptions;
export type CompileResult = { plan: Plan; diagnostics: Diagnostic[] };

/** Validates and compiles skill.md; throws SkillValidationError (with every diagnostic) when any is an error. */
export function compileSkill(text: string, opts: CompileOptions): CompileResult {
  const analysis = analyzeSkill(text, opts);
  const { diagnostics } = analysis;
  if (diagnostics.some((d) => d.severity === 'error') || !analysis.frontmatter || !analysis.graph || !analysis.source || !analysis.body || !analysis.llmContract) {
    throw new SkillValidationError(diagnostics);
  }
  const fm = analysis.frontmatter as unknown as Frontmatter;
  const graph = analysis.graph;
  const c: Compiling = { fm, source: analysis.source, bundleDir: path.resolve(opts.bundleDir), artifacts: fm.artifacts ?? {} };
  const llmContract = analysis.llmContract.schema;
  const phases: Record<string, PhasePlan> = {};
  for (const name of graph.order) {
    const settings = (fm.phases && has(fm.phases, name) ? fm.phases[name] : null) ?? {};
    const successors = graph.successors.get(name) ?? [];
    const isTerminal = successors.length === 0;
    const inputSchema = settings.input_schema !== undefined ? schemaOf(c, settings.input_schema) : null;
    phases[name] = {
      name,
      successors,
      isTerminal,
      inputSchema,
      outputSchema: isTerminal ? llmContract : settings.output_schema !== undefined ? schemaOf(c, settings.output_schema) : ANY_OBJECT,
      tools: settings.tools ?? [],
      maxRounds: settings.max_rounds ?? DEFAULT_MAX_ROUNDS,
      prompt: has(analysis.body.prompts, name) ? analysis.body.prompts[name] : '',
      preprocessor: settings.preprocessor
        ? processor(c, settings.preprocessor.steps, ['phases', name, 'preprocessor', 'steps'], inputSchema ?? ANY_OBJECT)
        : null,
    };
  }
  const callerContract = fm.postprocessor ? schemaOf(c, fm.postprocessor.output_schema) : llmContract;
  const rung = (r: string) => PHASE_LADDER.indexOf(r as Rung);
  const stageProgram = (fm.capabilities ?? [])
    .map((cap, i) => ({ spec: stage(c, cap, i), i }))
    .sort((a, b) => rung(a.spec.rung) - rung(b.spec.rung) || a.i - b.i)
    .map((x) => x.spec);
  const plan: Plan = {
    name: fm.name,
    description: fm.description ?? '',
    bundleDir: c.bundleDir,
    skillHash: createHash('sha256').update(text, 'utf8').digest('hex'),
    entry: fm.entry,
    order: graph.order,
    phases,
    system: analysis.body.system,
    llmContract,
    callerContract,
    stageProgram,
    effectGrants: new Set(fm.permissions?.effects ?? []),
    permittedOps: new Set(fm.permissions?.ops ?? []),
    postprocessor: fm.postprocessor ? processor(c, fm.postprocessor.steps, ['postprocessor', 'steps'], callerContract) : null,
    artifacts: c.artifacts,
    warnings: diagnostics.filter((d) => d.severity === 'warning'),
  };
  return { plan, diagnostics };
}
