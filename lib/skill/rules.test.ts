/**
 * Every validator rule: its id, severity, exact line:column, key path and
 * message, one table row per case (fixtures/rule-cases-*.ts), and a check that
 * no rule in RULES goes untested.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SEMANTIC_CASES } from './fixtures/rule-cases-semantic';
import { STRUCTURE_CASES } from './fixtures/rule-cases-structure';
import { MINIMAL, show, validate } from './fixtures/helpers';
import { has } from './frontmatter';
import { BUNDLE_RULES, RULE_IDS, RULES } from './rules';

const RULE_CASES = [...STRUCTURE_CASES, ...SEMANTIC_CASES];

describe('validator rules', () => {
  it('the minimal skill has no findings', () => {
    assert.deepEqual(validate(MINIMAL), [], show(validate(MINIMAL)));
  });

  for (const c of RULE_CASES) {
    it(`${c.rule}: ${c.name}`, () => {
      const ds = validate(c.text);
      const hit = ds.find((d) => d.rule === c.rule && d.line === c.line && d.column === c.column);
      assert.ok(hit, `expected ${c.rule} at ${c.line}:${c.column}, got:\n${show(ds)}`);
      assert.equal(hit.severity, RULES[c.rule].severity);
      assert.equal(hit.path, c.path);
      assert.equal(hit.file, 'skill.md');
      for (const words of c.includes) assert.ok(hit.message.includes(words), `message lacks ${JSON.stringify(words)}: ${hit.message}`);
      const allowed = new Set([c.rule, ...(c.alsoErrors ?? [])]);
      const stray = ds.filter((d) => d.severity === 'error' && !allowed.has(d.rule as never));
      assert.deepEqual(stray, [], `unexpected errors:\n${show(stray)}`);
    });
  }

  it('every rule in RULES has at least one case (bundle rules: analyze-bundle.test.ts)', () => {
    const covered = new Set(RULE_CASES.map((c) => c.rule));
    assert.deepEqual(
      RULE_IDS.filter((r) => !covered.has(r) && !has(BUNDLE_RULES, r)),
      [],
    );
  });

  it('every message says what to do (ends with an instruction or a suggestion)', () => {
    for (const c of RULE_CASES) {
      for (const d of validate(c.text)) {
        assert.ok(d.message.length > 20 && /[.?]$/.test(d.message), `terse message for ${d.rule}: ${d.message}`);
      }
    }
  });
});
