/**
 * The frontmatter JSON Schema: plain JSON, described everywhere, its enums
 * drawn from the registries, and in agreement with the validator — on fixed
 * samples and on random mutations of valid frontmatter, the schema (compiled
 * here by a separate ajv) rejects exactly when the structural pass reports an
 * error, and then validateSkill reports one too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { readFileSync } from 'node:fs';
import { BUILTINS, KNOWN_EFFECTS } from '../kernel/builtins/catalog';
import { isJsonObject } from '../kernel/json';
import type { JsonObject } from '../kernel/json';
import { OPS } from '../kernel/ops/registry';
import { PHASE_LADDER } from '../kernel/plan';
import { fakeFileExists } from './fixtures/helpers';
import { Findings } from './rules';
import { skillFrontmatterSchema } from './schema';
import { checkStructure } from './structure';
import { validateSkill } from './validate';

type AjvCtor = typeof import('ajv/dist/2020.js').default;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: unknown) => void;

const independent = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
addFormats(independent);
const schemaAccepts = independent.compile(skillFrontmatterSchema);

const blogText = readFileSync(new URL('./fixtures/blog_writer/skill.md', import.meta.url), 'utf8');
const blogFm = parse(blogText.split('\n---\n')[0].replace(/^---\n/, '')) as JsonObject;

function structuralErrors(value: unknown): number {
  const findings = new Findings('skill.md');
  checkStructure(value, findings);
  return findings.list.filter((d) => d.severity === 'error').length;
}

function fullErrors(value: unknown): number {
  const text = `---\n${stringify(value)}---\nBody.\n`;
  return validateSkill(text, { file: 'skill.md', bundleDir: '/ws/demo', fileExists: fakeFileExists }).diagnostics.filter(
    (d) => d.severity === 'error',
  ).length;
}

function assertAgreement(sample: unknown, label: string): void {
  const accepted = schemaAccepts(sample);
  const structural = structuralErrors(sample);
  assert.equal(structural > 0, !accepted, `${label}: schema ${accepted ? 'accepts' : 'rejects'} but the structural pass reported ${structural} errors`);
  if (!accepted) assert.ok(fullErrors(sample) > 0, `${label}: schema rejects but validateSkill reported no error`);
}

/** Sets (or with `undefined`, deletes) the value at a path of a deep copy. */
function mutate(base: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(base);
  let cur = copy as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  return copy;
}

/** Every path of a JSON value (objects and arrays), root excluded. */
function pathsOf(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push([...at, i], ...pathsOf(x, [...at, i])));
  else if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) out.push([...at, k], ...pathsOf(x, [...at, k]));
  return out;
}

describe('skillFrontmatterSchema', () => {
  it('is plain JSON (serves to an editor as is)', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(skillFrontmatterSchema)), skillFrontmatterSchema);
    assert.equal(skillFrontmatterSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  });

  it('describes every key, following $ref', () => {
    const defs = skillFrontmatterSchema.$defs as Record<string, JsonObject>;
    const target = (s: JsonObject): JsonObject =>
      typeof s.$ref === 'string' ? defs[s.$ref.replace('#/$defs/', '')] : s;
    const missing: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${at}[${i}]`));
      if (!isJsonObject(node)) return;
      if (isJsonObject(node.properties)) {
        for (const [k, s] of Object.entries(node.properties)) {
          // the `type` placeholders of if-conditions are not keys an author sees
          if (at.endsWith('.if')) continue;
          if (isJsonObject(s) && typeof target(s).description !== 'string') missing.push(`${at}.${k}`);
        }
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${at}.${k}`);
    };
    walk(skillFrontmatterSchema, '#');
    assert.deepEqual(missing, []);
  });

  it('forbids unknown keys wherever an author writes keys', () => {
    const defs = skillFrontmatterSchema.$defs as Record<string, JsonObject>;
    assert.equal(skillFrontmatterSchema.additionalProperties, false);
    for (const name of ['phase', 'capability', 'step_validate', 'step_run_op', 'step_iterate', 'step_lint_plan', 'step_python', 'step_node']) {
      assert.equal(defs[name].additionalProperties, false, name);
    }
  });

  it('draws its enums from the op registry, the ladder, the builtin catalog and the known effects', () => {
    const defs = skillFrontmatterSchema.$defs as Record<string, JsonObject>;
    assert.deepEqual(defs.op.enum, Object.keys(OPS));
    assert.deepEqual(defs.effect.enum, KNOWN_EFFECTS);
    const cap = defs.capability.properties as Record<string, JsonObject>;
    assert.deepEqual(cap.stage.enum, [...PHASE_LADDER]);
    assert.deepEqual((cap.uses.anyOf as JsonObject[])[0].enum, Object.keys(BUILTINS).map((b) => `builtin:${b}`));
    const runOp = (defs.step_run_op.properties as Record<string, JsonObject>).op;
    assert.ok(!(runOp.enum as string[]).includes('ask_user'), 'a processor cannot dispatch ask_user');
  });
});

describe('the schema and the validator agree', () => {
  it('on the valid examples', () => {
    assert.equal(schemaAccepts(blogFm), true);
    assertAgreement(blogFm, 'blog_writer');
  });

  const samples: [string, (string | number)[], unknown][] = [
    ['unknown top-level key', ['colour'], 'blue'],
    ['name not a string', ['name'], 42],
    ['bad name', ['name'], 'Blog Writer'],
    ['entry missing', ['entry'], undefined],
    ['graph missing', ['graph'], undefined],
    ['graph empty', ['graph'], {}],
    ['graph value a string', ['graph', 'draft'], 'review'],
    ['graph value null', ['graph', 'review'], null],
    ['phase as a list', ['phases', 'draft'], []],
    ['phase as null', ['phases', 'draft'], null],
    ['tool unknown', ['phases', 'draft', 'tools', 0], 'file/reed'],
    ['max_rounds 0', ['phases', 'draft', 'max_rounds'], 0],
    ['max_rounds 2.5', ['phases', 'draft', 'max_rounds'], 2.5],
    ['input_schema a number', ['phases', 'draft', 'input_schema'], 3],
    ['preprocessor without steps', ['phases', 'draft', 'preprocessor'], {}],
    ['step type llm', ['postprocessor', 'steps', 0, 'type'], 'llm'],
    ['step extra key', ['postprocessor', 'steps', 0, 'retries'], 3],
    ['run_op ask_user', ['postprocessor', 'steps', 2, 'op'], 'ask_user'],
    ['run_op args a list', ['postprocessor', 'steps', 2, 'args'], []],
    ['validate without schema', ['postprocessor', 'steps', 3, 'schema'], undefined],
    ['timeout_ms too big', ['postprocessor', 'steps', 0, 'timeout_ms'], 600001],
    ['pure a string', ['postprocessor', 'steps', 0, 'pure'], 'yes'],
    ['on_error unknown', ['postprocessor', 'steps', 1, 'on_error'], 'retry'],
    ['postprocessor without output_schema', ['postprocessor', 'output_schema'], undefined],
    ['capability without uses', ['capabilities', 0, 'uses'], undefined],
    ['capability rung unknown', ['capabilities', 0, 'stage'], 'post-tools'],
    ['capability unknown builtin', ['capabilities', 0, 'uses'], 'builtin:nope'],
    ['capability module uses', ['capabilities', 0, 'uses'], './caps.ts#budget'],
    ['builtin option unknown', ['capabilities', 0, 'with', 'max_char'], 10],
    ['builtin option below minimum', ['capabilities', 0, 'with', 'max_chars'], 1],
    ['effect unknown', ['permissions', 'effects', 0], 'disk'],
    ['ops duplicated', ['permissions', 'ops', 1], 'file/read'],
    ['permissions extra key', ['permissions', 'models'], ['gpt']],
    ['artifact a string', ['artifacts', 'post'], 'object'],
    ['final_output a list', ['final_output'], ['post']],
  ];
  for (const [label, path, value] of samples) {
    it(label, () => assertAgreement(mutate(blogFm, path, value), label));
  }

  it('on random mutations of a valid frontmatter (property)', () => {
    const paths = pathsOf(blogFm);
    const values = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('file/read', 'ask_user', 'post-tool', 'builtin:pii_redact', 'python', 'empty', 'draft', 'review', 'x', ''),
      fc.integer({ min: -5, max: 700000 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...paths), values, fc.option(fc.string({ maxLength: 8 })), (path, value, extraKey) => {
        let sample = mutate(blogFm, path, value);
        if (extraKey !== null && path.length > 1) {
          const parentPath = path.slice(0, -1);
          const parent = parentPath.reduce<unknown>((cur, seg) => (cur as Record<string | number, unknown>)?.[seg], sample);
          if (isJsonObject(parent)) sample = mutate(sample, [...parentPath, `k${extraKey}`], 1);
        }
        assertAgreement(sample, `${path.join('.')} = ${JSON.stringify(value)}`);
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });
});
