/**
 * The key under the cursor: its key path at a position of skill.md, and what
 * the frontmatter schema says about it (the branch of a step's `type` or a
 * capability's `uses` when it is written), with its docs anchor.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonObject } from '../kernel/json';
import { describeKey, describeKeyAt, DOC_ANCHORS, keyPathAt } from './key-info';
import { skillFrontmatterSchema } from './schema';

const TEXT = `---
name: demo
entry: draft
graph:
  draft: [review]
  review: []
final_output: post
artifacts:
  post: { type: object, properties: { title: { type: string } } }
phases:
  draft:
    tools: [file/read]
capabilities:
  - name: budget
    stage: post-tool
    uses: builtin:tool_result_budget
    with: { max_chars: 4000 }
postprocessor:
  output_schema: post
  steps:
    - type: python
      module: ./rendering.py
      function: to_html
      on_error: skip
    - type: node
      module: ./steps.mjs
      function: f
---
Body text.
`;

/** 1-based line:column of `needle` (its first occurrence, plus `offset` characters) */
function at(needle: string, offset = 0): [number, number] {
  const i = TEXT.indexOf(needle);
  assert.ok(i >= 0, needle);
  const before = TEXT.slice(0, i + offset).split('\n');
  return [before.length, before[before.length - 1].length + 1];
}

/** the schema's own description at a JSON pointer of skillFrontmatterSchema */
function schemaDescription(pointer: string): unknown {
  let cur: unknown = skillFrontmatterSchema;
  for (const seg of pointer.split('/')) cur = isJsonObject(cur) ? cur[seg] : undefined;
  return isJsonObject(cur) ? cur.description : undefined;
}

describe('keyPathAt', () => {
  it('gives the key path of a key, of its value, and of a list item', () => {
    assert.deepEqual(keyPathAt(TEXT, ...at('on_error: skip')), ['postprocessor', 'steps', 0, 'on_error']);
    assert.deepEqual(keyPathAt(TEXT, ...at('on_error: skip', 11)), ['postprocessor', 'steps', 0, 'on_error']);
    assert.deepEqual(keyPathAt(TEXT, ...at('file/read')), ['phases', 'draft', 'tools', 0]);
    assert.deepEqual(keyPathAt(TEXT, ...at('max_chars')), ['capabilities', 0, 'with', 'max_chars']);
    assert.deepEqual(keyPathAt(TEXT, ...at('title:')), ['artifacts', 'post', 'properties', 'title']);
    assert.deepEqual(keyPathAt(TEXT, ...at('[review]', 1)), ['graph', 'draft', 0]);
  });

  it('a cursor in the indentation or on a list marker belongs to what follows on the line', () => {
    assert.deepEqual(keyPathAt(TEXT, at('      function: f')[0], 1), ['postprocessor', 'steps', 1, 'function']);
    assert.deepEqual(keyPathAt(TEXT, ...at('- type: node')), ['postprocessor', 'steps', 1, 'type']);
  });

  it('is null outside the frontmatter', () => {
    assert.equal(keyPathAt(TEXT, 1, 1), null);
    assert.equal(keyPathAt(TEXT, ...at('---\nBody')), null);
    assert.equal(keyPathAt(TEXT, ...at('Body text.')), null);
    assert.equal(keyPathAt('no frontmatter', 1, 1), null);
    assert.equal(keyPathAt(TEXT, 500, 1), null);
  });
});

describe('describeKey', () => {
  it('the cursor on `on_error` of a step gives its description', () => {
    const info = describeKeyAt(TEXT, ...at('on_error: skip'));
    assert.deepEqual(info, {
      path: 'postprocessor.steps[0].on_error',
      description: schemaDescription('$defs/step_python/properties/on_error'),
      anchor: 'step-types',
    });
    assert.match(info?.description ?? '', /^What a failure of this step does/);
  });

  it('a step key takes the branch of the step’s type; without it, the common description', () => {
    const python = describeKeyAt(TEXT, ...at('module: ./rendering.py'));
    const node = describeKeyAt(TEXT, ...at('module: ./steps.mjs'));
    assert.equal(python?.description, schemaDescription('$defs/step_python/properties/module'));
    assert.equal(node?.description, schemaDescription('$defs/step_node/properties/module'));
    assert.equal(describeKeyAt(TEXT, ...at('- type: python', 2))?.description, schemaDescription('$defs/step/properties/type'));
    assert.equal(describeKey(['postprocessor', 'steps', 0])?.description, schemaDescription('$defs/step'));
    assert.equal(describeKey(['postprocessor', 'steps', 0], () => 'iterate')?.description, schemaDescription('$defs/step_iterate'));
    assert.equal(describeKey(['postprocessor', 'steps', 3, 'into'])?.description, schemaDescription('$defs/step_python/properties/into'));
  });

  it('a builtin’s options are described from the builtin its `uses` names', () => {
    const info = describeKeyAt(TEXT, ...at('max_chars'));
    assert.equal(info?.path, 'capabilities[0].with.max_chars');
    assert.match(info?.description ?? '', /builtin:tool_result_budget/);
    assert.equal(info?.anchor, 'capabilities-with');
  });

  it('anchors: the top-level key, or <top>-<key> under phases, capabilities, permissions and postprocessor', () => {
    const anchor = (path: (string | number)[]) => describeKey(path)?.anchor;
    assert.equal(anchor(['phases', 'draft', 'tools', 0]), 'phases-tools');
    assert.equal(anchor(['phases', 'draft']), 'phases');
    assert.equal(anchor(['phases', 'draft', 'preprocessor', 'steps']), 'phases-preprocessor');
    assert.equal(anchor(['phases', 'draft', 'preprocessor', 'steps', 0, 'op']), 'step-types');
    assert.equal(anchor(['capabilities', 0, 'stage']), 'capabilities-stage');
    assert.equal(anchor(['capabilities', 0, 'name']), 'capabilities');
    assert.equal(anchor(['permissions', 'effects', 1]), 'permissions-effects');
    assert.equal(anchor(['postprocessor', 'output_schema']), 'postprocessor-output_schema');
    assert.equal(anchor(['postprocessor', 'steps']), 'postprocessor-steps');
    assert.equal(anchor(['graph', 'draft', 0]), 'graph');
    for (const key of Object.keys(skillFrontmatterSchema.properties as object)) {
      const info = describeKey([key]);
      assert.ok(info && DOC_ANCHORS.includes(info.anchor), key);
      assert.equal(info.anchor, key);
    }
  });

  it('inside free-form data (a JSON Schema, `args`), the nearest described key', () => {
    assert.deepEqual(describeKey(['artifacts', 'post', 'properties', 'title']), {
      path: 'artifacts.post',
      description: 'A JSON Schema (2020-12). Its `pattern` and `patternProperties` are matched by RE2, in time linear in the input: no backreferences (\\1), no lookahead or lookbehind ((?=…), (?<=…)), repeats at most {1000}.',
      anchor: 'artifacts',
    });
    assert.equal(describeKey(['postprocessor', 'steps', 0, 'args', 'path'], () => 'run_op')?.path, 'postprocessor.steps[0].args');
    assert.equal(describeKey(['graph', 'my phase', 0])?.path, 'graph["my phase"]');
  });

  it('a key the format does not have is null', () => {
    assert.equal(describeKey(['titel']), null);
    assert.equal(describeKey(['phases', 'draft', 'tolos']), null);
    assert.equal(describeKey(['postprocessor', 'steps', 0, 'modul'], () => 'python'), null);
    assert.equal(describeKey([]), null);
  });
});
