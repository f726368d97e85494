/**
 * Schemas in skill.md: references name artifacts, inline schemas and
 * artifacts compile under JSON Schema 2020-12, and the LLM contract is
 * declared once and agreed on by every terminal phase.
 *
 * Owns: `resolveSchema` (a name → its artifact, inline → itself; the compiler
 * uses the same function, so what validates is what runs), the compile check
 * located inside the schema (an unknown keyword at that keyword, a bad `type`
 * at its value), and the contract rules. Does not: check what flows through a
 * schema at run time (lib/kernel/schema-check.ts).
 */
import type { ErrorObject } from 'ajv';
import type { JsonSchema } from '../kernel/json';
import type { PatternUnsupportedError } from '../kernel/errors';
import { isJsonObject } from '../kernel/json';
import { schemaChecker } from './ajv';
import type { CheckContext } from './check-context';
import { has, jsonEqual, obj } from './frontmatter';
import type { KeyPath } from './source';
import { formatPath } from './source';
import { pointerToPath } from './structure';
import { didYouMean, suggestionSuffix } from './suggest';

const KEYWORDS_2020 = [
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$defs', '$comment', '$vocabulary',
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains',
  'maxProperties', 'minProperties', 'required', 'dependentRequired', 'properties', 'patternProperties',
  'additionalProperties', 'propertyNames', 'items', 'prefixItems', 'contains', 'unevaluatedItems',
  'unevaluatedProperties', 'dependentSchemas', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'format',
  'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'contentEncoding',
  'contentMediaType', 'contentSchema',
];

const isSchemaValue = (v: unknown): v is JsonSchema => typeof v === 'boolean' || isJsonObject(v);

/** A schema-or-name resolved against the artifacts; undefined when it names no artifact or is not a schema. */
export function resolveSchema(value: unknown, artifacts: Record<string, unknown>): JsonSchema | undefined {
  if (typeof value === 'string') {
    const a = has(artifacts, value) ? artifacts[value] : undefined;
    return isSchemaValue(a) ? a : undefined;
  }
  return isSchemaValue(value) ? value : undefined;
}

/** Path (relative to the schema) of the first key `key` (optionally holding `value`), depth first. */
function findKey(node: unknown, key: string, value?: unknown, at: KeyPath = []): KeyPath | undefined {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const r = findKey(node[i], key, value, [...at, i]);
      if (r) return r;
    }
  } else if (isJsonObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === key && (value === undefined || v === value)) return [...at, k];
      const r = findKey(v, key, value, [...at, k]);
      if (r) return r;
    }
  }
  return undefined;
}

/** Why an author schema does not compile, located relative to the schema itself. */
type SchemaProblem = { message: string; at: KeyPath; where: 'key' | 'value' };

function metaErrors(schema: JsonSchema, errors: ErrorObject[]): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const anyOf = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const isBranch = (e: ErrorObject) =>
    anyOf.some((a) => a !== e && a.instancePath === e.instancePath && e.schemaPath.startsWith(`${a.schemaPath}/`));
  // the same place may be reported by several meta-schema paths: keep one finding per place
  const seen = new Set<string>();
  for (const e of errors) {
    if (isBranch(e)) continue;
    const rel = pointerToPath(e.instancePath, schema);
    const key = formatPath(rel);
    if (seen.has(key)) continue;
    seen.add(key);
    const value = rel.reduce<unknown>(
      (cur, seg) => (Array.isArray(cur) && typeof seg === 'number' ? cur[seg] : isJsonObject(cur) ? cur[String(seg)] : undefined),
      schema,
    );
    const allowed = errors
      .filter((b) => b.instancePath === e.instancePath && b.keyword === 'enum')
      .flatMap((b) => ((b.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String));
    const shown = JSON.stringify(value);
    const hint =
      allowed.length && typeof value === 'string'
        ? `${suggestionSuffix(value, allowed)} Allowed: ${allowed.join(', ')}.`
        : ` (${e.message ?? 'invalid'}).`;
    const where = rel.length ? `\`${key}\`` : 'the schema';
    out.push({ message: `Not a valid JSON Schema 2020-12: ${where} is ${shown}${hint} Fix this keyword's value.`, at: rel, where: 'value' });
  }
  return out;
}

/** Path (relative to the schema) of a `patternProperties` key that is `pattern`, depth first. */
function findPatternProperty(node: unknown, pattern: string, at: KeyPath = []): KeyPath | undefined {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const r = findPatternProperty(node[i], pattern, [...at, i]);
      if (r) return r;
    }
  } else if (isJsonObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'patternProperties' && isJsonObject(v) && Object.prototype.hasOwnProperty.call(v, pattern)) return [...at, k, pattern];
      const r = findPatternProperty(v, pattern, [...at, k]);
      if (r) return r;
    }
  }
  return undefined;
}

/** A pattern RE2 cannot express, at its `pattern` value or its `patternProperties` key. */
function patternProblem(schema: JsonSchema, pattern: string, message: string): SchemaProblem {
  const asValue = findKey(schema, 'pattern', pattern);
  if (asValue) return { message, at: asValue, where: 'value' };
  return { message, at: findPatternProperty(schema, pattern) ?? [], where: 'key' };
}

/** Compiles one author schema; says, inside it, why it does not compile (nothing when it does). */
function compileProblems(schema: JsonSchema): SchemaProblem[] {
  const ajv = schemaChecker(schema);
  try {
    if (!ajv.validateSchema(schema)) return metaErrors(schema, ajv.errors ?? []);
    ajv.compile(schema as object);
    return [];
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if ((err as { code?: string }).code === 'pattern_unsupported') return [patternProblem(schema, (err as PatternUnsupportedError).pattern, msg)];
    let m: RegExpExecArray | null;
    if ((m = /unknown keyword: "([^"]+)"/.exec(msg))) {
      return [
        {
          message:
            `Unknown JSON Schema keyword \`${m[1]}\`${suggestionSuffix(m[1], KEYWORDS_2020)}` +
            `${didYouMean(m[1], KEYWORDS_2020) ? '' : ' Use a JSON Schema 2020-12 keyword, or remove it.'}`,
          at: findKey(schema, m[1]) ?? [],
          where: 'key',
        },
      ];
    }
    if ((m = /unknown format "([^"]+)"/.exec(msg))) {
      return [
        {
          message: `Unknown format \`${m[1]}\`: use a format ajv-formats knows (date, date-time, email, uri, uuid, …) or remove it.`,
          at: findKey(schema, 'format', m[1]) ?? [],
          where: 'value',
        },
      ];
    }
    if ((m = /no schema with key or ref "([^"]+)"/.exec(msg)) || (m = /can't resolve reference (\S+)/.exec(msg))) {
      const ref = m[1];
      const rel = findKey(schema, '$schema', ref) ?? findKey(schema, '$ref', ref) ?? findKey(schema, '$ref') ?? [];
      return [
        {
          message:
            rel[rel.length - 1] === '$schema'
              ? `\`$schema: ${ref}\` is not JSON Schema 2020-12: remove \`$schema\` (2020-12 is the default) or set it to https://json-schema.org/draft/2020-12/schema.`
              : `\`$ref: ${ref}\` cannot be resolved: a schema may only refer inside itself (e.g. #/$defs/item).`,
          at: rel,
          where: 'value',
        },
      ];
    }
    return [{ message: `This schema does not compile under JSON Schema 2020-12: ${msg}.`, at: [], where: 'value' }];
  } finally {
    if (typeof schema === 'object') {
      try {
        ajv.removeSchema(schema);
      } catch {
        // nothing was added
      }
    }
  }
}

/**
 * Compile outcomes by schema text. The editor re-validates on every keystroke
 * and nearly every schema is unchanged between two, while an ajv compile
 * costs about a millisecond: each distinct schema is compiled once. The
 * outcome is a function of the text alone (key order included, which is why
 * the key is `JSON.stringify`, not a sorted form: the locations follow it).
 */
const compiled = new Map<string, SchemaProblem[]>();
const MAX_COMPILED = 2000;

/** Compiles one author schema and reports, inside it, why it does not compile. */
export function checkSchemaCompiles(ctx: CheckContext, schema: JsonSchema, at: KeyPath): void {
  const text = JSON.stringify(schema);
  let problems = compiled.get(text);
  if (problems === undefined) {
    problems = compileProblems(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(text, problems);
  }
  for (const p of problems) ctx.findings.add('invalid_schema', p.message, [...at, ...p.at], p.where);
}

/** Checks one schema-or-name site: a name must be an artifact, inline must compile. */
export function checkSchemaSite(ctx: CheckContext, value: unknown, at: KeyPath, what: string): void {
  const artifacts = obj(ctx.fm.artifacts);
  if (typeof value === 'string') {
    if (!has(artifacts, value)) {
      const names = Object.keys(artifacts);
      const s = didYouMean(value, names);
      ctx.findings.add(
        'unknown_artifact',
        `${what} names \`${value}\`, which is not an artifact${suggestionSuffix(value, names)}` +
          (s ? '' : names.length ? ` Artifacts: ${names.join(', ')}; add it under \`artifacts:\` or fix the name.` : ' Declare it under `artifacts:` or write the schema inline.'),
        at,
      );
    }
  } else if (isSchemaValue(value)) {
    checkSchemaCompiles(ctx, value, at);
  }
}

const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** Whether a schema can hold a JSON object (a misspelt `type` is another finding's business). */
function objectType(schema: JsonSchema | undefined): boolean {
  if (!isJsonObject(schema) || schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('object') || types.some((t) => typeof t !== 'string' || !JSON_TYPES.includes(t));
}

export type LlmContract = { schema: JsonSchema; path: KeyPath } | undefined;

/** Artifacts compile; every schema site outside processors resolves; the LLM contract is settled. */
export function checkSchemasAndContracts(ctx: CheckContext): LlmContract {
  const { fm, graph, findings } = ctx;
  const artifacts = obj(fm.artifacts);
  for (const [name, schema] of Object.entries(artifacts)) {
    if (isSchemaValue(schema)) checkSchemaCompiles(ctx, schema, ['artifacts', name]);
  }
  const phases = obj(fm.phases);
  for (const key of ['final_output', 'output_schema'] as const) {
    if (has(fm, key)) checkSchemaSite(ctx, fm[key], [key], `\`${key}\``);
  }
  for (const [p, raw] of Object.entries(phases)) {
    const ph = obj(raw);
    for (const key of ['input_schema', 'output_schema'] as const) {
      if (has(ph, key)) checkSchemaSite(ctx, ph[key], ['phases', p, key], `\`phases.${p}.${key}\``);
    }
  }
  const post = obj(fm.postprocessor);
  if (has(post, 'output_schema')) checkSchemaSite(ctx, post.output_schema, ['postprocessor', 'output_schema'], '`postprocessor.output_schema`');

  // ---- the LLM contract
  let contract: LlmContract;
  if (has(fm, 'final_output') && has(fm, 'output_schema')) {
    findings.add(
      'duplicate_contract',
      '`final_output` and `output_schema` are two spellings of the one LLM contract: keep one of them and delete the other.',
      ['output_schema'],
      'key',
    );
  }
  const spelled = has(fm, 'final_output') ? 'final_output' : has(fm, 'output_schema') ? 'output_schema' : undefined;
  const terminalOwn = graph.phases
    .filter((p) => graph.terminal.has(p) && has(obj(phases[p]), 'output_schema'))
    .map((p) => ({ phase: p, path: ['phases', p, 'output_schema'] as KeyPath, schema: resolveSchema(obj(phases[p]).output_schema, artifacts) }));
  if (spelled) {
    const schema = resolveSchema(fm[spelled], artifacts);
    if (schema !== undefined) contract = { schema, path: [spelled] };
  } else if (terminalOwn.length) {
    const first = terminalOwn[0];
    if (first.schema !== undefined) contract = { schema: first.schema, path: first.path };
  } else if (Object.keys(obj(fm.graph)).length) {
    findings.add(
      'missing_final_output',
      'No LLM contract: declare what the last phase\'s model returns with `final_output: <artifact name>` ' +
        '(or `output_schema:` with an inline schema), or give every terminal phase its own `output_schema`.',
      [],
      'key',
    );
  }
  if (contract) {
    for (const t of terminalOwn) {
      if (t.schema === undefined || jsonEqual(t.schema, contract.schema) || formatPath(t.path) === formatPath(contract.path)) continue;
      findings.add(
        'terminal_contract_mismatch',
        `Terminal phase \`${t.phase}\` finishes the skill, so its output_schema must be the LLM contract (\`${formatPath(contract.path)}\`), ` +
          'but it is a different schema: remove this output_schema (the phase then uses the contract) or make the two the same.',
        t.path,
      );
    }
  }

  // ---- schemas that cannot describe the JSON object a phase or step holds
  const objectSites: [unknown, KeyPath][] = [
    ...(spelled ? [[fm[spelled], [spelled]] as [unknown, KeyPath]] : []),
    ...Object.entries(phases).flatMap(([p, raw]) =>
      (['input_schema', 'output_schema'] as const)
        .filter((k) => has(obj(raw), k))
        .map((k) => [obj(raw)[k], ['phases', p, k]] as [unknown, KeyPath]),
    ),
    ...(has(post, 'output_schema') ? [[post.output_schema, ['postprocessor', 'output_schema']] as [unknown, KeyPath]] : []),
  ];
  for (const [value, path] of objectSites) {
    const schema = resolveSchema(value, artifacts);
    if (objectType(schema)) continue;
    findings.add(
      'contract_not_object',
      `${typeof value === 'string' ? `Artifact \`${value}\`` : 'This schema'} has \`type: ${JSON.stringify((schema as { type: unknown }).type)}\`, ` +
        'but finish artifacts and processor values are JSON objects: use `type: object` with properties.',
      path,
    );
  }
  return contract;
}
