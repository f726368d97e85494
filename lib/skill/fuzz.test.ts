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
import { validateSkill } from './validate';

const blogText = readFileSync(new URL('./fixtures/blog_writer/skill.md', import.meta.url), 'utf8');

const FRAGMENTS = [
  ':', ': ', '-', '- ', '\n', '  ', '\t', '[', ']', '{', '}', '#', '---', '"', "'", '&a', '*a', '!tag ', '${x}', '..', '/',
  'constructor', '__proto__', 'toString', 'builtin:constructor', 'type: llm', 'op: ask_user', 'on_error: empty', 'module: ../x.py', 'stage: finalize', '\n## Draft\n', '\n```\n', 'ü', '🙂', '\r\n',
];

type Edit =
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'dupLine'; line: number }
  | { kind: 'swapLines'; a: number; b: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })) }),
  fc.record({ kind: fc.constant('dupLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
);

function apply(text: string, e: Edit): string {
  switch (e.kind) {
    case 'delete': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + e.length);
    }
    case 'insert': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + e.text + text.slice(at);
    }
    case 'dupLine': {
      const lines = text.split('\n');
      const i = e.line % lines.length;
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    }
    case 'swapLines': {
      const lines = text.split('\n');
      const a = e.a % lines.length;
      const b = e.b % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      return lines.join('\n');
    }
  }
}

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
