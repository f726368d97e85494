/**
 * Reading skill.md: the `---` split, positions in the whole file (the
 * frontmatter starts on line 2), key paths, and the body's sections.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readBody } from './body';
import { MINIMAL, show, validate } from './fixtures/helpers';
import { Findings } from './rules';
import type { SkillSplit } from './source';
import { formatPath, parseFrontmatter, parsePath, splitSkill } from './source';
import { didYouMean, editDistance } from './suggest';

function mustSplit(text: string): SkillSplit {
  const s = splitSkill(text);
  assert.ok(!('rule' in s), 'expected a split');
  return s as SkillSplit;
}

describe('splitSkill', () => {
  it('cuts frontmatter and body and knows their lines', () => {
    const s = mustSplit('---\nname: demo\nentry: x\n---\nBody\n');
    assert.equal(s.frontmatter, 'name: demo\nentry: x\n');
    assert.equal(s.frontmatterLine, 2);
    assert.equal(s.closingLine, 4);
    assert.equal(s.body, 'Body\n');
    assert.equal(s.bodyLine, 5);
  });

  it('accepts CRLF line ends, trailing blanks on the fences and a byte-order mark', () => {
    const s = mustSplit('\uFEFF---  \r\nname: demo\r\n--- \r\nBody\r\n');
    assert.equal(s.frontmatter, 'name: demo\r\n');
    assert.equal(s.closingLine, 3);
  });

  it('a `---` inside the body is body text', () => {
    const s = mustSplit('---\nname: demo\n---\nabove\n---\nbelow\n');
    assert.equal(s.body, 'above\n---\nbelow\n');
  });

  it('says why it cannot split', () => {
    const missing = splitSkill('# A title\n');
    assert.ok('rule' in missing && missing.rule === 'frontmatter_missing');
    assert.deepEqual('rule' in missing && missing.span, { line: 1, column: 1, endLine: 1, endColumn: 10 });
    const open = splitSkill('---\nname: demo\n');
    assert.ok('rule' in open && open.rule === 'frontmatter_unterminated');
  });
});

describe('FrontmatterSource.locate', () => {
  const text = '---\nname: demo\nphases:\n  draft:\n    tools: [file/read, run_skill]\n    empty:\n  review: ~\nlist:\n  - a: 1\n    b: 2\n---\n';
  const { source } = parseFrontmatter(mustSplit(text));

  it('finds values and keys by path, in whole-file positions', () => {
    assert.deepEqual(source.locate(['name']), { line: 2, column: 7, endLine: 2, endColumn: 11 });
    assert.deepEqual(source.locate(['name'], 'key'), { line: 2, column: 1, endLine: 2, endColumn: 5 });
    assert.deepEqual(source.locate(['phases', 'draft', 'tools', 1]), { line: 5, column: 24, endLine: 5, endColumn: 33 });
    assert.deepEqual(source.locate(['phases', 'draft', 'tools']), { line: 5, column: 12, endLine: 5, endColumn: 34 });
  });

  it('an empty value is located at its key', () => {
    assert.deepEqual(source.locate(['phases', 'draft', 'empty']), { line: 6, column: 5, endLine: 6, endColumn: 10 });
  });

  it('a missing path falls back to its nearest ancestor: a key, or the first line of an array item', () => {
    assert.deepEqual(source.locate(['phases', 'draft', 'nope', 'deeper'], 'key'), { line: 4, column: 3, endLine: 4, endColumn: 8 });
    assert.deepEqual(source.locate(['list', 0, 'c'], 'key'), { line: 9, column: 5, endLine: 9, endColumn: 9 });
    assert.deepEqual(source.locate(['absent']), { line: 1, column: 1, endLine: 1, endColumn: 4 });
  });

  it('formats key paths the way diagnostics show them', () => {
    assert.equal(formatPath(['phases', 'draft', 'tools', 1]), 'phases.draft.tools[1]');
    assert.equal(formatPath(['postprocessor', 'steps', 2, 'steps', 0]), 'postprocessor.steps[2].steps[0]');
    assert.equal(formatPath(['artifacts', 'a b']), 'artifacts["a b"]');
    assert.equal(formatPath([]), '');
  });

  it('parsePath reads back what formatPath writes, odd keys included', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.nat({ max: 99 }), fc.constantFrom('draft', 'a-b', '$x', '0', 'a.b', 'x[1]', '"', '\\')), { maxLength: 6 }), (path) => {
        assert.deepEqual(parsePath(formatPath(path)), path);
      }),
      { numRuns: 500, seed: 3 },
    );
    assert.deepEqual(parsePath('phases.draft.preprocessor.steps[0].module'), ['phases', 'draft', 'preprocessor', 'steps', 0, 'module']);
    assert.deepEqual(parsePath('graph["my phase"][2]'), ['graph', 'my phase', 2]);
    assert.deepEqual(parsePath(''), []);
  });

  it('positions stay right after a syntax error (the file, not the lexer, counts lines)', () => {
    const broken = '---\n  topic:\n  topic:\ndescription: x\nentry: draft\n---\n';
    const ds = validate(broken);
    assert.deepEqual(
      ds.map((d) => [d.rule, d.line, d.column]),
      [
        ['duplicate_key', 3, 3],
        ['yaml_syntax', 4, 1],
      ],
      show(ds),
    );
  });

  it('CRLF files are located like LF files', () => {
    const lf = validate(MINIMAL.replace('post\n', 'posts\n'));
    const crlf = validate(MINIMAL.replace('post\n', 'posts\n').replace(/\n/g, '\r\n'));
    assert.deepEqual(
      crlf.map((d) => [d.rule, d.line, d.column]),
      lf.map((d) => [d.rule, d.line, d.column]),
    );
    assert.deepEqual(
      lf.map((d) => [d.rule, d.line, d.column]),
      [['unknown_artifact', 7, 15]],
    );
  });
});

describe('readBody', () => {
  it('text before the first phase heading is the shared system prompt; each phase heading opens its prompt', () => {
    const body = 'You are terse.\n\n## draft\nDraft it.\n\n### Notes\nsub-heading text\n## review ##\nReview it.\n';
    assert.deepEqual(readBody(body, 1, ['draft', 'review']), {
      system: 'You are terse.',
      prompts: { draft: 'Draft it.\n\n### Notes\nsub-heading text', review: 'Review it.' },
    });
  });

  it('other headings stay in the current section; fenced code never opens one', () => {
    const body = '## Overview\nIntro.\n## draft\n```md\n## review\n```\nStill draft.\n';
    const findings = new Findings('skill.md');
    assert.deepEqual(readBody(body, 10, ['draft', 'review'], findings), {
      system: '## Overview\nIntro.',
      prompts: { draft: '```md\n## review\n```\nStill draft.' },
    });
    assert.deepEqual(findings.list, []);
  });

  it('a phase with no section has no prompt entry', () => {
    assert.deepEqual(readBody('Only shared.', 1, ['draft']), { system: 'Only shared.', prompts: {} });
  });
});

describe('did you mean', () => {
  it('counts a swap of two adjacent letters as one edit', () => {
    assert.equal(editDistance('tolos', 'tools'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
  });

  it('suggests only close words, case-insensitively, and never the word itself', () => {
    assert.equal(didYouMean('toolz', ['tools', 'max_rounds']), 'tools');
    assert.equal(didYouMean('Draft', ['draft', 'review']), 'draft');
    assert.equal(didYouMean('colour', ['name', 'entry', 'graph']), undefined);
    assert.equal(didYouMean('tools', ['tools']), undefined);
    assert.equal(didYouMean('ab', ['xy']), undefined);
    // common headings are not mistaken for phases
    assert.equal(didYouMean('Overview', ['review']), undefined);
    assert.equal(didYouMean('Intro', ['entry']), undefined);
    assert.equal(didYouMean('Setup', ['step']), undefined);
  });
});
