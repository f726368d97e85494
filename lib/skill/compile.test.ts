/**
 * Compiling skill.md into a Plan: the spec's blog_writer example (a real
 * bundle under fixtures/) compiles to the expected plan, and a second skill
 * exercises what the example does not: several successors, stage ordering,
 * module capabilities, iterate, lint_plan, named validate schemas, defaults.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SkillValidationError } from '../kernel/errors';
import { compileSkill, emptyValueFor } from './compile';
import { BUNDLE_DIR, fakeFileExists } from './fixtures/helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const blogDir = path.join(here, 'fixtures', 'blog_writer');
const blogText = readFileSync(path.join(blogDir, 'skill.md'), 'utf8');

const post = {
  type: 'object',
  properties: { title: { type: 'string' }, body: { type: 'string' } },
  required: ['title', 'body'],
};
const renderedPost = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    body: { type: 'string' },
    html: { type: 'string' },
    word_count: { type: 'integer' },
    summary: { type: 'object' },
  },
  required: ['title', 'body', 'html', 'word_count'],
};
const topic = {
  type: 'object',
  properties: { topic: { type: 'string' }, notes: { type: 'string' } },
  required: ['topic'],
};

describe('compileSkill: the blog_writer example of skill-md.md', () => {
  const { plan, diagnostics } = compileSkill(blogText, { file: 'skill.md', bundleDir: blogDir });
  const rendering = path.join(blogDir, 'rendering.py');

  it('has no findings', () => {
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(plan.warnings, []);
  });

  it('names, hash and order', () => {
    assert.equal(plan.name, 'blog_writer');
    assert.equal(plan.description, 'Writes a blog post');
    assert.equal(plan.bundleDir, blogDir);
    assert.match(plan.skillHash, /^[0-9a-f]{64}$/);
    assert.equal(plan.entry, 'draft');
    assert.deepEqual(plan.order, ['draft', 'review']);
    assert.equal(plan.system, 'You are a careful technical writer.');
  });

  it('phases: schemas resolved, defaults filled, prompts from the body', () => {
    assert.deepEqual(plan.phases.draft, {
      name: 'draft',
      successors: ['review'],
      isTerminal: false,
      inputSchema: topic,
      outputSchema: post,
      tools: ['file/read'],
      maxRounds: 8,
      prompt: 'Write a first draft from the topic and the notes.',
      preprocessor: {
        outputSchema: topic,
        steps: [
          { index: 0, onError: 'empty', into: 'notes', emptyValue: '', line: 39, type: 'run_op', op: 'file/read', args: { path: 'notes.txt' } },
        ],
      },
    });
    assert.deepEqual(plan.phases.review, {
      name: 'review',
      successors: [],
      isTerminal: true,
      inputSchema: null,
      outputSchema: post,
      tools: [],
      maxRounds: 8,
      prompt: 'Tighten the draft and return the final post.',
      preprocessor: null,
    });
  });

  it('contracts: the LLM contract is final_output, the caller contract the postprocessor output_schema', () => {
    assert.deepEqual(plan.llmContract, post);
    assert.deepEqual(plan.callerContract, renderedPost);
    assert.deepEqual(Object.keys(plan.artifacts), ['topic', 'draft_post', 'post', 'rendered_post']);
  });

  it('postprocessor: steps with absolute module paths, defaults and empty values from the caller contract', () => {
    assert.deepEqual(plan.postprocessor, {
      outputSchema: renderedPost,
      steps: [
        { index: 0, onError: 'fail', emptyValue: null, line: 56, type: 'python', module: './rendering.py', modulePath: rendering, function: 'to_html', timeoutMs: 10000, pure: false },
        { index: 1, onError: 'empty', into: 'word_count', emptyValue: 0, line: 59, type: 'python', module: './rendering.py', modulePath: rendering, function: 'count_words', timeoutMs: 10000, pure: true },
        { index: 2, onError: 'skip', into: 'summary', emptyValue: {}, line: 65, type: 'run_op', op: 'run_skill', args: { skill: 'summarizer', input: { text: '${body}' } } },
        {
          index: 3,
          onError: 'fail',
          emptyValue: null,
          line: 70,
          type: 'validate',
          schema: { type: 'object', properties: { word_count: { type: 'integer', minimum: 1 } }, required: ['word_count'] },
        },
      ],
    });
  });

  it('stage program, grants and permitted ops', () => {
    assert.deepEqual(plan.stageProgram, [
      {
        name: 'result_budget',
        capability: 'result_budget',
        rung: 'post-tool',
        binding: { kind: 'builtin', name: 'tool_result_budget' },
        effects: ['transcript.write'],
        with: { max_chars: 4000 },
        line: 45,
      },
    ]);
    assert.deepEqual([...plan.effectGrants], ['fs.read', 'transcript.write']);
    assert.deepEqual([...plan.permittedOps], ['file/read', 'run_skill']);
  });

  it('the hash is the sha256 of the text', () => {
    const again = compileSkill(`${blogText}\n`, { file: 'skill.md', bundleDir: blogDir }).plan;
    assert.notEqual(again.skillHash, plan.skillHash);
    assert.equal(compileSkill(blogText, { file: 'skill.md', bundleDir: blogDir }).plan.skillHash, plan.skillHash);
  });
});

const ROUTER = `---
name: router
entry: triage
graph:
  triage: [answer, escalate]
  answer: []
  escalate: ~
artifacts:
  reply:
    type: object
    properties: { text: { type: string } }
    required: [text]
  batch:
    type: object
    properties:
      items: { type: array }
      results:
        type: array
        items:
          type: object
          properties: { tags: { type: array }, score: { type: [number, "null"] } }
      lint: { type: array }
      notes: { type: string }
phases:
  triage:
    input_schema: batch
    output_schema:
      type: object
      properties: { next: { enum: [escalate, answer] } }
      required: [next]
    preprocessor:
      steps:
        - type: iterate
          over: items
          into: results
          on_error: empty
          steps:
            - type: node
              module: ./steps.mjs
              function: tag
              into: tags
              on_error: empty
              timeout_ms: 2500
            - type: validate
              schema: reply
              path: text
        - type: lint_plan
          plan: items
          on_error: empty
  answer:
    output_schema: reply
    max_rounds: 3
  escalate:
    output_schema: reply
capabilities:
  - name: redact
    stage: finalize
    uses: builtin:pii_redact
  - name: rules
    stage: prompt-assembly
    uses: ./caps.ts#addRules
    effects: [prompt.write]
    with: { strict: true }
  - name: numbers
    stage: post-model
    uses: builtin:unverified_numbers
    with: { severity: error }
  - name: gate
    stage: prompt-assembly
    uses: ./caps.ts#gate
    effects: [prompt.write]
permissions:
  effects: [artifact.write, prompt.write]
---
Route the request.

## triage
Pick \`answer\` or \`escalate\`.

## answer
Answer it.
`;

describe('compileSkill: graph order, stage program, processors', () => {
  const { plan, diagnostics } = compileSkill(ROUTER, { file: 'skill.md', bundleDir: BUNDLE_DIR, fileExists: fakeFileExists });
  const reply = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

  it('compiles without findings', () => {
    assert.deepEqual(diagnostics, []);
  });

  it('orders phases breadth-first from entry, following the declared successor order', () => {
    assert.deepEqual(plan.order, ['triage', 'answer', 'escalate']);
    assert.deepEqual(plan.phases.triage.successors, ['answer', 'escalate']);
    assert.equal(plan.phases.escalate.isTerminal, true);
  });

  it('takes the LLM contract from the terminal phases when no final_output is given', () => {
    assert.deepEqual(plan.llmContract, reply);
    assert.deepEqual(plan.callerContract, reply);
    assert.equal(plan.postprocessor, null);
    assert.deepEqual(plan.phases.answer.outputSchema, reply);
    assert.equal(plan.phases.answer.maxRounds, 3);
    assert.equal(plan.phases.escalate.prompt, '');
  });

  it('sorts stages by rung, then declaration order; fills builtin effects and with defaults', () => {
    assert.deepEqual(
      plan.stageProgram.map((s) => [s.rung, s.name]),
      [
        ['prompt-assembly', 'rules'],
        ['prompt-assembly', 'gate'],
        ['post-model', 'numbers'],
        ['finalize', 'redact'],
      ],
    );
    const [rules, , numbers, redact] = plan.stageProgram;
    assert.deepEqual(rules.binding, { kind: 'module', module: './caps.ts', modulePath: '/ws/demo/caps.ts', exportName: 'addRules' });
    assert.deepEqual(rules.with, { strict: true });
    assert.deepEqual(numbers.with, { severity: 'error' });
    assert.deepEqual(redact.effects, ['artifact.write']);
    assert.deepEqual(redact.with, { replacement: '[redacted]' });
    assert.deepEqual(redact.binding, { kind: 'builtin', name: 'pii_redact' });
  });

  it('compiles iterate with nested steps whose empty values come from the element schema', () => {
    const steps = plan.phases.triage.preprocessor?.steps ?? [];
    assert.equal(steps.length, 2);
    const [iterate, lint] = steps;
    assert.equal(iterate.type, 'iterate');
    if (iterate.type !== 'iterate') return;
    assert.equal(iterate.over, 'items');
    assert.equal(iterate.into, 'results');
    assert.deepEqual(iterate.emptyValue, []);
    assert.equal(iterate.line, 33);
    assert.deepEqual(iterate.steps[0], {
      index: 0,
      onError: 'empty',
      into: 'tags',
      emptyValue: [],
      line: 38,
      type: 'node',
      module: './steps.mjs',
      modulePath: '/ws/demo/steps.mjs',
      function: 'tag',
      timeoutMs: 2500,
      pure: false,
    });
    assert.deepEqual(iterate.steps[1], { index: 1, onError: 'fail', emptyValue: null, line: 44, type: 'validate', schema: reply, schemaName: 'reply', path: 'text' });
    assert.deepEqual(lint, { index: 1, onError: 'empty', into: 'lint', emptyValue: [], line: 47, type: 'lint_plan', plan: 'items', rules: [] });
  });
});

describe('emptyValueFor', () => {
  const schema = {
    type: 'object',
    properties: {
      s: { type: 'string' },
      a: { type: 'array' },
      o: { type: 'object' },
      n: { type: 'number' },
      i: { type: 'integer' },
      b: { type: 'boolean' },
      maybe: { type: ['string', 'null'] },
      either: { type: ['integer', 'string'] },
      anything: {},
      ref: { $ref: '#/$defs/list' },
      nested: { type: 'object', properties: { deep: { type: 'string' } } },
    },
    $defs: { list: { type: 'array' } },
  };
  const cases: [string | undefined, unknown][] = [
    ['s', ''],
    ['a', []],
    ['o', {}],
    ['n', 0],
    ['i', 0],
    ['b', false],
    ['maybe', null],
    ['either', 0],
    ['anything', null],
    ['ref', []],
    ['nested.deep', ''],
    ['absent', null],
    [undefined, null],
  ];
  for (const [into, want] of cases) {
    it(`${String(into)} → ${JSON.stringify(want)}`, () => assert.deepEqual(emptyValueFor(schema, into), want));
  }
  it('a boolean or missing schema gives null', () => {
    assert.equal(emptyValueFor(true, 'x'), null);
    assert.equal(emptyValueFor(undefined, 'x'), null);
  });
});

describe('compileSkill: errors', () => {
  it('throws SkillValidationError carrying every diagnostic', () => {
    const text = blogText.replace('entry: draft', 'entry: drafts').replace('max_rounds: 8', 'max_rounds: 0');
    assert.throws(
      () => compileSkill(text, { file: 'skill.md', bundleDir: blogDir }),
      (e: unknown) => {
        assert.ok(e instanceof SkillValidationError);
        assert.equal(e.httpStatus, 422);
        assert.deepEqual(
          e.diagnostics.map((d) => [d.rule, d.line]),
          [
            ['unknown_phase', 4],
            ['out_of_range', 36],
          ],
        );
        assert.match(e.message, /skill\.md has 2 errors; first: skill\.md:4:8/);
        return true;
      },
    );
  });

  it('warnings do not stop compilation and are kept on the plan', () => {
    const text = blogText.replace('  effects: [fs.read, transcript.write]', '  effects: [fs.read]');
    const { plan } = compileSkill(text, { file: 'skill.md', bundleDir: blogDir });
    assert.deepEqual(
      plan.warnings.map((w) => w.rule),
      ['effect_not_granted'],
    );
  });
});
