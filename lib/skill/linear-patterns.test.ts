// Patterns in an author's schemas are matched by RE2 (linear time) everywhere a skill's schema is
// compiled: the kernel's checks, the validator, the input check the browser runs. A catastrophic
// pattern answers at once (with the backtracking engine these tests would never end); what RE2
// cannot express is one clear error, located in skill.md by the validator and worded the same by
// the kernel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchema } from '../kernel/schema-check';
import { compileLinear } from '../kernel/linear-regexp';
import { checkInput } from './input-check';
import { validateSkill } from './validate';
import { IN_MEMORY_BUNDLE } from './bundle-paths';

const EVIL = '^(a+)+$';
const ATTACK = `${'a'.repeat(50_000)}!`;

test('"^(a+)+$" against "aaa…a!" answers at once: in the kernel, in the input check, in a compiled validate', () => {
  const schema = { type: 'object', properties: { s: { type: 'string', pattern: EVIL } } };
  assert.deepEqual(checkSchema(schema, { s: ATTACK }).map((e) => e.pointer), ['/s']);
  assert.deepEqual(checkSchema(schema, { s: 'aaaa' }), []);
  assert.deepEqual(checkInput(schema, { s: ATTACK }).map((e) => e.pointer), ['/s']);
  const props = { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'number' } } };
  assert.deepEqual(checkSchema(props, { [`${'x'.repeat(5000)}`]: 'not a number' }), [], 'no key matches: nothing to check');
  assert.equal(checkSchema(props, { xxy: 'nope' }).length, 1);
});

test('the JavaScript spellings of a pattern keep their meaning: \\u escapes, \\u{…}, named groups, classes', () => {
  const cases: [string, string, boolean][] = [
    ['^caf\\u00e9$', 'café', true],
    ['^\\u{1F600}$', '😀', true],
    ['^(?<year>\\d{4})-\\d{2}$', '2024-05', true],
    ['^[\\w.-]+@example\\.com$', 'a.b-c@example.com', true],
    ['^[(?=]+$', '(?=', true],
    ['^\\p{Lu}', 'Élan', true],
    ['^\\d{3}$', '12a', false],
  ];
  for (const [p, s, want] of cases) assert.equal(compileLinear(p).test(s), want, `${p} on ${s}`);
});

const skill = (schemaYaml: string) => `---
name: patterns
entry: go
graph:
  go: []
output_schema:
${schemaYaml}
---
Go.
`;

test('a backreference or a lookaround is refused by the validator at its place in skill.md, saying why and what to do', () => {
  const back = validateSkill(skill('  type: object\n  properties:\n    code: { type: string, pattern: "^(a)\\\\1$" }'), { file: 'skill.md', bundleDir: IN_MEMORY_BUNDLE }).diagnostics;
  assert.equal(back.length, 1, JSON.stringify(back));
  assert.equal(back[0].rule, 'invalid_schema');
  assert.deepEqual([back[0].line, back[0].column], [9, 36]);
  assert.equal(back[0].path, 'output_schema.properties.code.pattern');
  assert.match(back[0].message, /cannot be matched in linear time: a backreference \(\\1\).*rewrite it in RE2 syntax/);

  const look = validateSkill(skill('  type: object\n  patternProperties:\n    "^(?!tmp_)": { type: string }'), { file: 'skill.md', bundleDir: IN_MEMORY_BUNDLE }).diagnostics;
  assert.equal(look.length, 1, JSON.stringify(look));
  assert.equal(look[0].line, 9);
  assert.equal(look[0].column, 5, 'at the patternProperties key');
  assert.match(look[0].message, /lookahead \(\(\?!…\) is not supported by RE2/);

  const big = validateSkill(skill('  type: object\n  properties:\n    a: { type: string, pattern: "^a{2000}$" }'), { file: 'skill.md', bundleDir: IN_MEMORY_BUNDLE }).diagnostics;
  assert.match(big[0]?.message ?? '', /invalid repeat count.*at most 1000 times/);
});

test('the kernel refuses the same pattern with the same words (a schema compiled at run time)', () => {
  const schema = { type: 'object', properties: { code: { type: 'string', pattern: '(?<=x)y' } } };
  assert.throws(() => checkSchema(schema, { code: 'xy' }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'pattern_unsupported');
    assert.match(e.message, /The pattern "\(\?<=x\)y" cannot be matched in linear time: lookbehind/);
    return true;
  });
});

test('strict mode never runs an author pattern with the backtracking engine (property names vs patternProperties)', () => {
  // ajv's strict check of `properties` against `patternProperties` used `new RegExp(p).test(name)` at compile time
  const name = `${'a'.repeat(40)}!`;
  const d = validateSkill(skill(`  type: object\n  properties:\n    "${name}": { type: string }\n  patternProperties:\n    "${EVIL}": { type: string }`), { file: 'skill.md', bundleDir: IN_MEMORY_BUNDLE }).diagnostics;
  assert.deepEqual(d.filter((x) => x.severity === 'error'), []);
});
