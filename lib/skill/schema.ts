/**
 * The JSON Schema (2020-12) of the skill.md frontmatter: the one description of
 * its shape, used by the Monaco editor (completion, hover) and by the
 * validator's structural pass (structure.ts compiles this very object), so the
 * editor and the validator cannot disagree.
 *
 * Owns: keys, types, enums and patterns — op names from the op registry, rungs
 * from PHASE_LADDER, builtin names and their `with` options from the builtin
 * catalog, known effects — and a `description` on every key for hover.
 * Does not: express the cross-key rules (graph reachability, permissions,
 * contracts, bundle files); those are the semantic checks (check-*.ts). The
 * schema is plain JSON data (no functions, no RegExp): `JSON.stringify` it to
 * serve it to an editor.
 */
import { BUILTINS, KNOWN_EFFECTS } from '../kernel/builtins/catalog';
import type { JsonObject, JsonSchema } from '../kernel/json';
import { OPS } from '../kernel/ops/registry';
import { PHASE_LADDER } from '../kernel/plan';

export const SKILL_NAME_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
const SKILL_NAME = new RegExp(SKILL_NAME_PATTERN);
/** a skill's name: skill.md's `name`, the store's key, a run_skill target, a URL segment */
export const isSkillName = (s: string): boolean => SKILL_NAME.test(s);
/** phase and capability names: plain identifiers, so `## <phase>` headings and stage names read cleanly */
export const IDENTIFIER_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';

export const STEP_TYPES = ['validate', 'run_op', 'iterate', 'lint_plan', 'python', 'node'] as const;
export const ON_ERROR = ['fail', 'skip', 'empty'] as const;
export const DEFAULT_MAX_ROUNDS = 8;
export const MAX_ROUNDS_LIMIT = 100;
export const DEFAULT_STEP_TIMEOUT_MS = 10_000;
export const STEP_TIMEOUT_LIMIT_MS = 600_000;

const OP_NAMES = Object.keys(OPS);
const PROCESSOR_OP_NAMES = OP_NAMES.filter((n) => !OPS[n].modelOnly);
const BUILTIN_USES = Object.keys(BUILTINS).map((n) => `builtin:${n}`);

/** what every schema site says of patterns (the engine: lib/kernel/linear-regexp.ts) */
const PATTERN_NOTE =
  'Its `pattern` and `patternProperties` are matched by RE2, in time linear in the input: no backreferences (\\1), no lookahead or lookbehind ((?=…), (?<=…)), repeats at most {1000}.';

const schemaOrRef = (description: string): JsonObject => ({
  description: `${description} Either the name of an entry of \`artifacts\`, or a JSON Schema (2020-12) written inline. ${PATTERN_NOTE}`,
  type: ['string', 'object', 'boolean'],
  minLength: 1,
});

const stepCommon = (into: string): JsonObject => ({
  type: { description: 'The step type.', enum: [...STEP_TYPES] },
  on_error: {
    description:
      'What a failure of this step does: `fail` (default) aborts the skill with WorkflowAbortedError; `skip` logs it and ' +
      'continues; `empty` writes the empty value of the `into` target\'s schema type ("", [], {}, 0, false, else null) and continues.',
    enum: [...ON_ERROR],
    default: 'fail',
  },
  into: { description: into, type: 'string', minLength: 1 },
});

const INTO_MERGE =
  'Store the step\'s result under this key of the current value instead of shallow-merging it. Required for `on_error: empty`.';

const codeStep = (lang: 'python' | 'node'): JsonObject => ({
  type: 'object',
  description:
    lang === 'python'
      ? 'Calls `function(value)` from a Python module of the bundle in a child python3 process, JSON in and out.'
      : 'Calls an exported `function(value)` (or async) from a .js/.mjs/.cjs/.ts/.mts module of the bundle in a child Node process.',
  additionalProperties: false,
  required: ['type', 'module', 'function'],
  properties: {
    ...stepCommon(INTO_MERGE),
    module: {
      description:
        lang === 'python'
          ? 'Path of the .py module, relative to the bundle folder (e.g. ./rendering.py); it must stay inside the bundle.'
          : 'Path of the .js/.mjs/.cjs/.ts/.mts module, relative to the bundle folder (e.g. ./steps.mjs); it must stay inside the bundle.',
      type: 'string',
      minLength: 1,
    },
    function: {
      description: lang === 'python' ? 'Name of the function to call: def function(value).' : 'Name of the exported function to call.',
      type: 'string',
      pattern: lang === 'python' ? '^[A-Za-z_][A-Za-z0-9_]*$' : '^[A-Za-z_$][A-Za-z0-9_$]*$',
    },
    timeout_ms: {
      description: `Kill the call after this many milliseconds (1..${STEP_TIMEOUT_LIMIT_MS}, default ${DEFAULT_STEP_TIMEOUT_MS}).`,
      type: 'integer',
      minimum: 1,
      maximum: STEP_TIMEOUT_LIMIT_MS,
      default: DEFAULT_STEP_TIMEOUT_MS,
    },
    pure: {
      description:
        'Promise that the function has no effect outside its return value: the kernel may group-commit it and run it again after a crash. Default false.',
      type: 'boolean',
      default: false,
    },
  },
});

const stepBranches: Record<(typeof STEP_TYPES)[number], JsonObject> = {
  validate: {
    type: 'object',
    description: 'Checks the current value (or the value at `path`) against a schema; fails with every schema error.',
    additionalProperties: false,
    required: ['type', 'schema'],
    properties: {
      type: stepCommon('').type,
      on_error: stepCommon('').on_error,
      schema: schemaOrRef('The schema the value must satisfy.'),
      path: { description: 'Check the value at this path of the current value (e.g. items[0].title) instead of the whole value.', type: 'string', minLength: 1 },
    },
  },
  run_op: {
    type: 'object',
    description: 'Dispatches one op through the same tool dispatch the model uses.',
    additionalProperties: false,
    required: ['type', 'op'],
    properties: {
      ...stepCommon(INTO_MERGE),
      op: {
        description: 'The op to dispatch; it must be listed in permissions.ops. ask_user is model-only and never allowed here.',
        enum: PROCESSOR_OP_NAMES,
      },
      args: {
        description: "The op's arguments; strings may reference the current value as ${title} or ${items[0].id}.",
        type: 'object',
        default: {},
      },
    },
  },
  iterate: {
    type: 'object',
    description: 'Runs `steps` once per element of the array at `over` (the element is the current value inside) and collects the results at `into`.',
    additionalProperties: false,
    required: ['type', 'over', 'steps', 'into'],
    properties: {
      ...stepCommon('The key that receives the array of results, one per element.'),
      over: { description: 'Path of the array to iterate over (e.g. items).', type: 'string', minLength: 1 },
      steps: { description: 'The steps run for each element.', type: 'array', items: { $ref: '#/$defs/step' } },
    },
  },
  lint_plan: {
    type: 'object',
    description:
      'Statically checks a plan (a list of {op, args}) against the op registry and the permission gate without running it; fails on any error-level finding.',
    additionalProperties: false,
    required: ['type', 'plan'],
    properties: {
      ...stepCommon('The key that receives the findings (default `lint`).'),
      plan: { description: 'Path of the plan (a list of {op, args}) in the current value.', type: 'string', minLength: 1 },
      rules: { description: 'Lint rules to apply (default: all).', type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    },
  },
  python: codeStep('python'),
  node: codeStep('node'),
};

const step: JsonObject = {
  type: 'object',
  description: 'A processor step: deterministic work; no step calls the model.',
  required: ['type'],
  properties: { type: { description: 'The step type.', enum: [...STEP_TYPES] } },
  allOf: STEP_TYPES.map((t) => ({
    if: { properties: { type: { const: t } }, required: ['type'] },
    then: { $ref: `#/$defs/step_${t}` },
  })),
};

const steps = (description: string): JsonObject => ({ description, type: 'array', items: { $ref: '#/$defs/step' } });

/** A builtin's options schema from the catalog, with a hover text on each option that lacks one. */
function builtinOptions(name: string, schema: JsonSchema): JsonObject {
  const base: JsonObject = typeof schema === 'object' ? { ...schema } : {};
  const props = typeof base.properties === 'object' && base.properties !== null && !Array.isArray(base.properties) ? base.properties : {};
  base.properties = Object.fromEntries(
    Object.entries(props).map(([k, p]) => {
      const opt = typeof p === 'object' && p !== null && !Array.isArray(p) ? p : {};
      const dflt = opt.default !== undefined ? ` (default ${JSON.stringify(opt.default)})` : '';
      return [k, { description: `Option \`${k}\` of builtin:${name}${dflt}.`, ...opt }];
    }),
  );
  return { ...base, description: `Options of builtin:${name}: ${BUILTINS[name].description}` };
}

const capability: JsonObject = {
  type: 'object',
  description: 'A stage attached to a rung of the phase ladder, run in every phase.',
  additionalProperties: false,
  required: ['name', 'stage', 'uses'],
  properties: {
    name: { description: 'The capability and stage name, unique in the skill.', type: 'string', pattern: IDENTIFIER_PATTERN },
    stage: {
      description: 'The rung of the phase ladder the stage runs on: ' + PHASE_LADDER.join(' → ') + '.',
      enum: [...PHASE_LADDER],
    },
    uses: {
      description: 'The handler: `builtin:<name>` for a builtin capability, or `./file#export` for an exported function of a module in the bundle.',
      anyOf: [
        { enum: BUILTIN_USES },
        { type: 'string', pattern: '^(?!builtin:)[^#]+#[A-Za-z_$][A-Za-z0-9_$]*$' },
      ],
    },
    effects: {
      description:
        'Effects the handler needs; each must be granted in permissions.effects or the stage is refused at run time. ' +
        "A builtin defaults to the effects it needs.",
      type: 'array',
      items: { $ref: '#/$defs/effect' },
      uniqueItems: true,
    },
    with: { description: 'Options handed to the handler.', type: 'object', default: {} },
  },
  allOf: Object.values(BUILTINS).map((b) => ({
    if: { properties: { uses: { const: `builtin:${b.name}` } }, required: ['uses'] },
    then: { properties: { with: builtinOptions(b.name, b.with) } },
  })),
};

const phase: JsonObject = {
  type: ['object', 'null'],
  description: 'Settings of one phase of the graph; a phase with no entry here takes the defaults.',
  additionalProperties: false,
  properties: {
    input_schema: schemaOrRef('What the preprocessor must yield for this phase (default: anything).'),
    output_schema: schemaOrRef(
      "The phase's own finish contract. Default: the LLM contract for a terminal phase, any JSON object otherwise. " +
        'A phase with several successors must declare a `next` property whose enum is exactly those successors.',
    ),
    tools: {
      description: 'Ops the model may call in this phase; each must be listed in permissions.ops.',
      type: 'array',
      items: { $ref: '#/$defs/op' },
      uniqueItems: true,
    },
    max_rounds: {
      description: `Model rounds before the phase fails (1..${MAX_ROUNDS_LIMIT}, default ${DEFAULT_MAX_ROUNDS}).`,
      type: 'integer',
      minimum: 1,
      maximum: MAX_ROUNDS_LIMIT,
      default: DEFAULT_MAX_ROUNDS,
    },
    preprocessor: {
      description: 'Deterministic steps run at phase start; the result must satisfy input_schema.',
      type: 'object',
      additionalProperties: false,
      required: ['steps'],
      properties: { steps: steps('The preprocessor steps, in order.') },
    },
  },
};

export const skillFrontmatterSchema: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://stagecraft.dev/schemas/skill-frontmatter.json',
  title: 'skill.md frontmatter',
  description: 'The YAML frontmatter of a Stagecraft skill.md.',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'entry', 'graph'],
  properties: {
    name: { description: 'The skill name: lowercase letters, digits and _, starting with a letter, at most 64 characters.', type: 'string', pattern: SKILL_NAME_PATTERN },
    description: { description: 'One line saying what the skill does.', type: 'string' },
    entry: { description: 'The phase the run starts in; a phase of `graph`.', type: 'string', minLength: 1 },
    graph: {
      description: 'The phase graph: each phase mapped to its successor phases ([] or nothing for a terminal phase).',
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: IDENTIFIER_PATTERN },
      additionalProperties: {
        description: 'The successor phases; several successors are chosen by the `next` property of the output.',
        type: ['array', 'null'],
        items: { type: 'string', pattern: IDENTIFIER_PATTERN },
        uniqueItems: true,
      },
    },
    final_output: schemaOrRef('The LLM finish contract of the skill (what the last phase\'s model returns); same meaning as `output_schema`, give only one.'),
    output_schema: schemaOrRef('The LLM finish contract of the skill; same meaning as `final_output`, give only one.'),
    artifacts: {
      description: "The skill's artifact registry: name → JSON Schema (2020-12). Schema references elsewhere name these.",
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: { description: `A JSON Schema (2020-12). ${PATTERN_NOTE}`, type: ['object', 'boolean'] },
    },
    phases: {
      description: 'Per-phase settings, keyed by phase name (each must be a phase of `graph`).',
      type: 'object',
      additionalProperties: { $ref: '#/$defs/phase' },
    },
    capabilities: {
      description: 'Stages attached to the phase ladder, sorted at run time by rung then by this order.',
      type: 'array',
      items: { $ref: '#/$defs/capability' },
    },
    permissions: {
      description: 'The skill-level permission gate for steps, the model and stages.',
      type: 'object',
      additionalProperties: false,
      properties: {
        ops: { description: 'Ops that steps and the model may dispatch.', type: 'array', items: { $ref: '#/$defs/op' }, uniqueItems: true },
        effects: { description: 'Effects granted to stages and ops.', type: 'array', items: { $ref: '#/$defs/effect' }, uniqueItems: true },
      },
    },
    postprocessor: {
      description: 'Deterministic steps run at skill end, from the LLM finish artifact to what the caller receives.',
      type: 'object',
      additionalProperties: false,
      required: ['output_schema', 'steps'],
      properties: {
        output_schema: schemaOrRef('The caller contract: what the skill returns to its caller.'),
        steps: steps('The postprocessor steps, in order.'),
      },
    },
  },
  $defs: {
    phase,
    capability,
    step,
    ...Object.fromEntries(STEP_TYPES.map((t) => [`step_${t}`, stepBranches[t]])),
    op: { description: 'An op of the registry: ' + OP_NAMES.join(', ') + '.', enum: OP_NAMES },
    effect: { description: 'An effect name: ' + KNOWN_EFFECTS.join(', ') + '.', enum: [...KNOWN_EFFECTS] },
  },
};
