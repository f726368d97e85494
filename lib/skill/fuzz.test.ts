/**
 * skill.md mutants (fast-check): random edits of a valid skill never make the
 * validator or the compiler throw anything but SkillValidationError, and every
 * finding points inside the file (1-based line and column within the text,
 * end after start).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Diagnostic } from '../kernel/errors';
import { SkillValidationError } from '../kernel/errors';
import { compileSkill } from './compile';
import { BUNDLE_DIR, fakeFileExists } from './fixtures/helpers';
import { apply, edit } from './fixtures/mutants';
import { validateSkill } from './validate';

const blogText = readFileSync(new URL('./fixtures/blog_writer/skill.md', import.meta.url), 'utf8');

function assertInside(text: string, d: Diagnostic): void {
  const lines = text.split('\n');
  const where = `${d.rule} at ${d.line}:${d.column}-${d.endLine}:${d.endColumn}`;
  assert.ok(Number.isInteger(d.line) && d.line >= 1 && d.line <= lines.length, `line out of the file: ${where}`);
  assert.ok(Number.isInteger(d.column) && d.column >= 1 && d.column <= lines[d.line - 1].length + 1, `column out of the line: ${where}`);
  if (d.endLine !== undefined && d.endColumn !== undefined) {
    assert.ok(d.endLine >= d.line && d.endLine <= lines.length, `end line out of the file: ${where}`);
    assert.ok(d.endLine > d.line || d.endColumn > d.column, `empty or inverted span: ${where}`);
    assert.ok(d.endColumn >= 1 && d.endColumn <= lines[d.endLine - 1].length + 2, `end column out of the line: ${where}`);
  }
  assert.ok(d.message.length > 0 && d.rule.length > 0);
  assert.ok(d.severity === 'error' || d.severity === 'warning');
}

describe('skill.md mutants', () => {
  it('never throw, and every finding is located inside the file', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        const text = edits.reduce(apply, blogText);
        const opts = { file: 'skill.md', bundleDir: BUNDLE_DIR, fileExists: fakeFileExists };
        const { diagnostics } = validateSkill(text, opts);
        for (const d of diagnostics) assertInside(text, d);
        try {
          compileSkill(text, opts);
          assert.ok(!diagnostics.some((d) => d.severity === 'error'), 'compiled despite errors');
        } catch (e) {
          assert.ok(e instanceof SkillValidationError, `compile threw ${String(e)}`);
          assert.ok(e.diagnostics.some((d) => d.severity === 'error'));
        }
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('arbitrary text never throws either', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        for (const text of [s, `---\n${s}\n---\n`]) {
          for (const d of validateSkill(text, { file: 'f', bundleDir: '/b', fileExists: () => false }).diagnostics) assertInside(text, d);
        }
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});
