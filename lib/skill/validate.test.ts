/**
 * validateSkill beyond one rule at a time: one pass reports everything,
 * contracts derived from terminal phases, defaults that are not errors, and
 * the decisions where the spec is silent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MINIMAL, show, validate } from './fixtures/helpers';

const rules = (text: string) => validate(text).map((d) => `${d.rule}@${d.line}:${d.column}`);

describe('validateSkill', () => {
  it('reports every problem in one pass: structure, graph, schemas, steps and body together', () => {
    const text = `---
name: demo
entry: draft
graph:
  draft: [review]
  review: []
  orphan: []
final_output: post
artifacts:
  post: { type: object }
phases:
  draft:
    toolz: [file/read]
postprocessor:
  output_schema: posts
  steps:
    - type: llm
---
## reveiw
`;
    assert.deepEqual(rules(text), [
      'unreachable_phase@7:3',
      'unknown_key@13:5',
      'unknown_artifact@15:18',
      'model_step@17:13',
      'heading_not_phase@19:4',
    ]);
  });

  it('sorts findings by position and never repeats one', () => {
    const ds = validate(MINIMAL.replace('entry: draft', 'entry: drafts').replace('final_output: post', 'final_output: posts'));
    assert.deepEqual(ds.map((d) => d.line), [3, 7]);
  });

  it('takes the LLM contract from terminal phases that agree, and rejects ones that disagree', () => {
    const agree = `---
name: demo
entry: a
graph:
  a: [b, c]
  b: []
  c: []
artifacts:
  out: { type: object }
phases:
  a:
    output_schema: { type: object, properties: { next: { enum: [b, c] } }, required: [next] }
  b:
    output_schema: out
  c:
    output_schema: { type: object }
---
`;
    assert.deepEqual(validate(agree), [], show(validate(agree)));
    const disagree = agree.replace('  c:\n    output_schema: { type: object }', '  c:\n    output_schema: { type: array }');
    assert.deepEqual(rules(disagree), ['terminal_contract_mismatch@16:20', 'contract_not_object@16:20']);
  });

  it('accepts top-level output_schema inline as the LLM contract', () => {
    const text = MINIMAL.replace('final_output: post', 'output_schema: { type: object, required: [title] }');
    assert.deepEqual(validate(text), [], show(validate(text)));
  });

  it('accepts the defaults: a phase with no settings, a terminal with no successor list, lint_plan empty without into', () => {
    const text = `---
name: demo
entry: draft
graph:
  draft: [review]
  review:
final_output: { type: object }
phases:
  draft:
  review:
    preprocessor:
      steps:
        - type: lint_plan
          plan: plan
          on_error: empty
        - type: run_op
          op: file/read
          args: { path: "\${file}" }
          into: text
permissions:
  ops: [file/read]
  effects: [fs.read]
---
`;
    assert.deepEqual(validate(text), [], show(validate(text)));
  });

  it('a validate step cannot use on_error: empty, and is told to use skip', () => {
    const text = MINIMAL.replace(
      '---\nBe brief.',
      'postprocessor:\n  output_schema: post\n  steps:\n    - type: validate\n      schema: post\n      on_error: empty\n---\nBe brief.',
    );
    const [d] = validate(text);
    assert.equal(d.rule, 'empty_needs_into');
    assert.match(d.message, /a validate step stores nothing to empty: use `on_error: skip`/);
  });

  it("a builtin without listed effects asks for its own, and that is checked against the grants", () => {
    const text = MINIMAL.replace('---\nBe brief.', 'capabilities:\n  - name: redact\n    stage: finalize\n    uses: builtin:pii_redact\n---\nBe brief.');
    const ds = validate(text);
    assert.deepEqual(
      ds.map((d) => [d.rule, d.path, d.line, d.column]),
      [['effect_not_granted', 'capabilities[0].uses', 15, 11]],
    );
  });

  it('a capability module must be a Node module', () => {
    const text = MINIMAL.replace('---\nBe brief.', 'capabilities:\n  - name: mine\n    stage: post-model\n    uses: ./rendering.py#check\n---\nBe brief.');
    assert.deepEqual(rules(text), ['module_extension@15:11']);
  });

  it('run_skill with a templated target is not checked on disk; an existing sibling bundle passes', () => {
    const step = (skill: string) =>
      MINIMAL.replace(
        '---\nBe brief.',
        `postprocessor:\n  output_schema: post\n  steps:\n    - type: run_op\n      op: run_skill\n      args: { skill: "${skill}" }\npermissions:\n  ops: [run_skill]\n---\nBe brief.`,
      );
    assert.deepEqual(validate(step('${which}')), []);
    assert.deepEqual(validate(step('summarizer')), []);
    assert.deepEqual(validate(step('./summarizer')), [], 'a path relative to the parent folder');
  });

  it('model-calling step types are named as such, wherever the step is nested', () => {
    const text = MINIMAL.replace(
      '---\nBe brief.',
      'postprocessor:\n  output_schema: post\n  steps:\n    - type: iterate\n      over: items\n      into: out\n      steps:\n        - type: prompt\n---\nBe brief.',
    );
    const ds = validate(text);
    assert.deepEqual(
      ds.map((d) => [d.rule, d.path]),
      [['model_step', 'postprocessor.steps[0].steps[0].type']],
    );
  });

  it('an ask_user tool of a phase is fine (the model may ask); only processors may not', () => {
    const text = MINIMAL.replace('---\nBe brief.', 'phases:\n  draft:\n    tools: [ask_user]\npermissions:\n  ops: [ask_user]\n  effects: [user.ask]\n---\nBe brief.');
    assert.deepEqual(validate(text), [], show(validate(text)));
  });

  it('an invalid inline schema in a validate step is located inside it', () => {
    const text = MINIMAL.replace(
      '---\nBe brief.',
      'postprocessor:\n  output_schema: post\n  steps:\n    - type: validate\n      schema:\n        type: object\n        required: title\n---\nBe brief.',
    );
    assert.deepEqual(
      validate(text).map((d) => [d.rule, d.path, d.line, d.column]),
      [['invalid_schema', 'postprocessor.steps[0].schema.required', 18, 19]],
    );
  });

  it('an unresolvable $ref and a foreign $schema are located at themselves', () => {
    const ref = MINIMAL.replace('    type: object\n', '    type: object\n    $ref: "#/$defs/missing"\n');
    assert.deepEqual(rules(ref), ['invalid_schema@11:11']);
    const draft7 = MINIMAL.replace('    type: object\n', '    $schema: "http://json-schema.org/draft-07/schema#"\n    type: object\n');
    const [d] = validate(draft7);
    assert.equal(`${d.rule}@${d.line}:${d.column}`, 'invalid_schema@10:14');
    assert.match(d.message, /remove `\$schema`/);
  });

  it('names that are also Object.prototype keys are ordinary names', () => {
    const phase = MINIMAL.replace('  review: []', '  review: [constructor]\n  constructor: []');
    assert.deepEqual(validate(phase), [], show(validate(phase)));
    const builtin = MINIMAL.replace('---\nBe brief.', 'capabilities:\n  - name: x\n    stage: toString\n    uses: builtin:constructor\n---\n');
    assert.deepEqual(rules(builtin), ['unknown_rung@14:12', 'unknown_builtin@15:11']);
    const artifact = MINIMAL.replace('final_output: post', 'final_output: __proto__');
    assert.deepEqual(rules(artifact), ['unknown_artifact@7:15']);
  });

  it('an alias inside the node it names (an infinite value) is a located YAML error, not a crash', () => {
    const text = MINIMAL.replace('final_output: post', 'final_output: &s { type: object, properties: { p: *s } }');
    assert.deepEqual(rules(text), ['yaml_syntax@7:51']);
  });

  it('one schema written at two sites is reported at each (compile outcomes are shared, locations are not)', () => {
    const text = MINIMAL.replace(
      '---\nBe brief.',
      'phases:\n  draft:\n    input_schema: { type: objekt }\n  review:\n    input_schema: { type: objekt }\n---\nBe brief.',
    );
    assert.deepEqual(rules(text), ['invalid_schema@14:27', 'invalid_schema@16:27']);
    assert.deepEqual(rules(text), ['invalid_schema@14:27', 'invalid_schema@16:27']);
  });

  it("an artifact's $id cannot disturb later checks, even the meta-schema's own id", () => {
    const text = MINIMAL.replace('    type: object\n', '    $id: "https://json-schema.org/draft/2020-12/schema"\n    type: object\n');
    validate(text);
    assert.deepEqual(rules(MINIMAL.replace('{ type: string }', '{ type: strng }')), ['invalid_schema@11:34']);
    assert.deepEqual(validate(MINIMAL), []);
  });
});

describe('a frontmatter not closed yet', () => {
  it('is read to the end of the file: its other findings and its diagram come too, the missing --- first', async () => {
    const { analyzeBundle } = await import('./analyze-bundle');
    const r = analyzeBundle({ 'skill.md': '---\nname: typing\nentry: start\noutput_schema: { type: object }\ngraph:\n  start: [next]\n  next: []\nphases:\n  nowhere: {}\n' });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.line]),
      [
        ['frontmatter_unterminated', 1],
        ['unknown_phase', 9],
      ],
    );
    assert.deepEqual(
      r.diagram?.nodes.map((n) => n.label),
      ['phase start (entry)', 'phase next', 'caller contract'],
    );
  });
});

describe('successor_typo', () => {
  it('a successor that is no graph key is a typo only when near a phase or heading and unheaded', () => {
    const terminal = (successor: string, body = 'Be brief.\n') =>
      validate(MINIMAL.replace('  draft: [review]\n  review: []\n', `  draft: [${successor}]\n  publish: []\n`).replace('Be brief.\n', body));
    const typos = (ds: ReturnType<typeof validate>) => ds.filter((d) => d.rule === 'successor_typo').map((d) => `${d.line}:${d.column} ${d.message}`);
    assert.deepEqual(typos(terminal('pubish')), ['5:11 `pubish` is not a phase of this skill and has no `## pubish` section — did you mean `publish`?']);
    // a heading near it counts too; its own section makes it a deliberate terminal phase; a far name is silent
    assert.match(typos(terminal('sumary', 'Be brief.\n\n## summary\nSum up.\n'))[0], /did you mean `summary`\?$/);
    assert.deepEqual(typos(terminal('pubish', 'Be brief.\n\n## pubish\nTidy.\n')), []);
    assert.deepEqual(typos(terminal('archive')), []);
    assert.deepEqual(typos(validate(MINIMAL)), []);
  });
});

describe('YAML errors', () => {
  it('an over-indented line is one error at its position, the more specific of the two the parser gives there', () => {
    const ds = validate('---\nname: demo\nentry: draft\n  graph: 1\n---\n');
    assert.deepEqual(
      ds.map((d) => `${d.rule}@${d.line}:${d.column}`),
      ['yaml_syntax@3:8'],
      show(ds),
    );
    assert.match(ds[0].message, /^YAML syntax error: Nested mappings are not allowed in compact mappings\. Fix the YAML here/);
  });

  it('an over-indented line names itself, the key it fell under and both fixes, the finding staying where the parser put it', () => {
    const ds = validate('---\nname: demo\nentry: draft\ngraph:\n  draft: []\noutput_schema:\n  type: object\n\n   properties:\n    a: { type: string }\n---\n');
    assert.deepEqual(
      ds.map((d) => `${d.rule}@${d.line}:${d.column}`),
      ['yaml_syntax@7:9'],
      show(ds),
    );
    assert.match(ds[0].message, /^YAML syntax error: Nested mappings are not allowed in compact mappings\. Fix the YAML here/);
    assert.ok(
      ds[0].message.endsWith(
        ' Line 9 (`properties:`) is indented deeper than `type:` on line 7, which already has a value: start it at column 3, as `type:` is, to make it a key beside it, or leave `type:` with nothing after it to nest it.',
      ),
      ds[0].message,
    );
    // a list item's key: its column is the key's, after the `- `
    const item = validate('---\nname: demo\nentry: draft\ngraph:\n  draft: []\ncapabilities:\n  - name: r\n      stage: finalize\n---\n');
    assert.match(item[0].message, /Line 8 \(`stage: finalize`\) is indented deeper than `name:` on line 7, which already has a value: start it at column 5/);
  });
});

describe('missing_key', () => {
  it("names the key by its description's first sentence, not the whole reference text", () => {
    const ds = validate(MINIMAL.replace('---\nBe brief.', 'postprocessor:\n  steps: []\n---\nBe brief.'));
    const hit = ds.find((d) => d.rule === 'missing_key');
    assert.ok(hit, show(ds));
    assert.equal(hit.message, '`postprocessor` is missing the required key `output_schema` (The caller contract: what the skill returns to its caller): add it.');
  });
});
