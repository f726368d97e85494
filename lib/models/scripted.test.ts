import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScriptedModel } from './scripted';
import { createReplayModel } from './replay';
import { createOpenAiModel } from './openai';
import { ModelError } from '../kernel/errors';
import type { ModelRequest } from '../kernel/ports';
import { req, rejectsWith } from './testing';


const SPEC_EXAMPLE = `turns:
  - phase: draft                # optional: fail loudly if the run is elsewhere
    text: "Reading the notes first."
    tool_calls:
      - { op: file/read, args: { path: notes.txt } }
  - phase: draft
    finish: { title: Hello, body: "Hello world" }
`;


function scriptError(text: string): ModelError {
  try {
    createScriptedModel(text, { file: 'model.yaml' });
  } catch (e) {
    assert.ok(e instanceof ModelError);
    assert.equal(e.code, 'model_script_invalid', e.message);
    return e;
  }
  assert.fail('expected model_script_invalid');
}

test('scripted: the spec example serves its turns in order, with deterministic ids', async () => {
  const model = createScriptedModel(SPEC_EXAMPLE);
  assert.equal(model.name, 'scripted:<script>');
  assert.deepEqual(await model.invoke(req('draft', 1)), {
    text: 'Reading the notes first.',
    toolCalls: [{ id: 'call_1_0', op: 'file/read', args: { path: 'notes.txt' } }],
    finish: null,
  });
  assert.deepEqual(await model.invoke(req('draft', 2)), { text: '', toolCalls: [], finish: { title: 'Hello', body: 'Hello world' } });
});

test('scripted: the turn depends on the position only, so a resumed run gets the same turn', async () => {
  const a = createScriptedModel(SPEC_EXAMPLE);
  const b = createScriptedModel(SPEC_EXAMPLE);
  await a.invoke(req('draft', 1));
  // b never served round 1 (as after a resume: round 1 was recorded), yet round 2 is the same turn
  assert.deepEqual(await b.invoke(req('draft', 2)), await a.invoke(req('draft', 2)));
  // asking the same position twice gives the same turn, not the next one
  assert.deepEqual(await a.invoke(req('draft', 2)), await a.invoke(req('draft', 2)));
});

test('scripted: JSON scripts, and a script read from a file', async () => {
  const json = JSON.stringify({ turns: [{ finish: { ok: true } }] });
  assert.deepEqual((await createScriptedModel(json).invoke(req('any', 1))).finish, { ok: true });

  const dir = mkdtempSync(path.join(tmpdir(), 'scripted-'));
  writeFileSync(path.join(dir, 'model.yaml'), SPEC_EXAMPLE);
  const model = createScriptedModel('model.yaml', { cwd: dir });
  assert.equal(model.name, 'scripted:model.yaml');
  assert.equal((await model.invoke(req('draft', 1))).toolCalls[0].op, 'file/read');
  assert.throws(() => createScriptedModel('missing.yaml', { cwd: dir }), (e: unknown) => e instanceof ModelError && e.code === 'model_script_unreadable');
});

test('scripted: phase blocks, untagged turns joining the previous phase, and visits', async () => {
  const model = createScriptedModel(`turns:
  - phase: draft
    text: d1
  - text: d2            # still draft
  - phase: review
    text: r1
  - phase: draft
    text: second draft
`);
  assert.deepEqual(
    model.script.blocks.map((b) => [b.phase, b.turns.map((t) => t.text)]),
    [
      ['draft', ['d1', 'd2']],
      ['review', ['r1']],
      ['draft', ['second draft']],
    ],
  );
  assert.equal((await model.invoke(req('draft', 1))).text, 'd1');
  assert.equal((await model.invoke(req('draft', 2))).text, 'd2');
  assert.equal((await model.invoke(req('review', 1))).text, 'r1');
  assert.equal((await model.invoke(req('draft', 1))).text, 'second draft');
  // an explicit visit wins over what this model instance saw (a run resumed in the second visit)
  const resumed = createScriptedModel(`turns:
  - { phase: draft, text: first }
  - { phase: review, text: r }
  - { phase: draft, text: again }
`);
  assert.equal((await resumed.invoke(req('draft', 1, { visit: 2 }))).text, 'again');
});

test('scripted: runs are tracked apart', async () => {
  const model = createScriptedModel(`turns:
  - { phase: a, text: a1 }
  - { phase: b, text: b1 }
  - { phase: a, text: a-again }
`);
  assert.equal((await model.invoke(req('a', 1, { runId: 'x' }))).text, 'a1');
  assert.equal((await model.invoke(req('b', 1, { runId: 'x' }))).text, 'b1');
  assert.equal((await model.invoke(req('a', 1, { runId: 'y' }))).text, 'a1');
  assert.equal((await model.invoke(req('a', 1, { runId: 'x' }))).text, 'a-again');
});

test('scripted: leading turns without a phase serve any phase the script does not name', async () => {
  const model = createScriptedModel(`turns:
  - text: anything
  - phase: review
    text: reviewed
`);
  assert.equal((await model.invoke(req('draft', 1))).text, 'anything');
  assert.equal((await model.invoke(req('review', 1))).text, 'reviewed');
});

test('scripted: exhaustion names the phase and round and says to add a turn', async () => {
  const model = createScriptedModel(SPEC_EXAMPLE, { file: 'model.yaml' });
  const e = await rejectsWith(model.invoke(req('draft', 3)), 'model_script_exhausted', /no turn for phase draft round 3; add one/);
  assert.match(e.message, /model\.yaml/);
  assert.match(e.message, /line 6/);
  assert.deepEqual({ phase: e.details.phase, round: e.details.round }, { phase: 'draft', round: 3 });
  await rejectsWith(createScriptedModel(SPEC_EXAMPLE).invoke(req('draft', 1, { visit: 2 })), 'model_script_exhausted', /visit 2/);
});

test('scripted: a run in a phase the script does not name fails loudly', async () => {
  const model = createScriptedModel(SPEC_EXAMPLE, { file: 'model.yaml' });
  const e = await rejectsWith(model.invoke(req('publish', 1)), 'model_script_phase_mismatch', /phase publish.*only for draft/);
  assert.equal(e.details.phase, 'publish');
});

test('scripted: a turn is a fresh copy each time', async () => {
  const model = createScriptedModel(SPEC_EXAMPLE);
  const first = await model.invoke(req('draft', 1));
  (first.toolCalls[0].args as Record<string, unknown>).path = 'mutated';
  assert.equal((await model.invoke(req('draft', 1))).toolCalls[0].args.path, 'notes.txt');
});

test('scripted: a bad round is refused', async () => {
  await rejectsWith(createScriptedModel(SPEC_EXAMPLE).invoke(req('draft', 0)), 'model_bad_request');
});

type BadScript = { name: string; text: string; line: number; column: number; message: RegExp };

const badScripts: BadScript[] = [
  { name: 'YAML syntax', text: 'turns:\n  - text: "open\n', line: 3, column: 1, message: /Missing closing "quote/ },
  { name: 'not a mapping', text: '- text: hi\n', line: 1, column: 1, message: /mapping with a `turns:` list/ },
  { name: 'no turns', text: 'steps: []\n', line: 1, column: 1, message: /unknown key `steps`/ },
  { name: 'empty turns', text: 'turns: []\n', line: 1, column: 8, message: /`turns` is empty/ },
  { name: 'turns not a list', text: 'turns: {a: 1}\n', line: 1, column: 8, message: /must be a list/ },
  { name: 'unknown key in a turn', text: 'turns:\n  - text: hi\n    tool_call: []\n', line: 3, column: 5, message: /unknown key `tool_call` in turn 1/ },
  { name: 'empty turn', text: 'turns:\n  - phase: draft\n', line: 2, column: 5, message: /turn 1 says nothing/ },
  { name: 'phase not a string', text: 'turns:\n  - phase: [a]\n    text: x\n', line: 2, column: 12, message: /`phase` must be a phase name/ },
  { name: 'text not a string', text: 'turns:\n  - text: {a: 1}\n', line: 2, column: 11, message: /`text` must be a string/ },
  { name: 'finish not an object', text: 'turns:\n  - finish: done\n', line: 2, column: 13, message: /`finish` must be a JSON object/ },
  { name: 'finish not JSON', text: 'turns:\n  - finish: { n: .inf }\n', line: 2, column: 13, message: /`finish` must be a JSON object/ },
  {
    name: 'tool call without op',
    text: 'turns:\n  - tool_calls:\n      - { args: {} }\n',
    line: 3,
    column: 9,
    message: /turn 1, tool call 1: `op` must be an op name/,
  },
  {
    name: 'tool call with an id',
    text: 'turns:\n  - tool_calls:\n      - { op: file/read, id: c1 }\n',
    line: 3,
    column: 26,
    message: /unknown key `id` in turn 1, tool call 1.*call_<round>_<index>/,
  },
  {
    name: 'tool args not an object',
    text: 'turns:\n  - tool_calls:\n      - { op: file/read, args: [1] }\n',
    line: 3,
    column: 32,
    message: /`args` must be a JSON object/,
  },
  {
    name: 'finish nested deeper than 128 levels',
    text: `turns:\n  - finish: { a: ${'['.repeat(600)}${']'.repeat(600)} }\n`,
    line: 2,
    column: 13,
    message: /turn 1: `finish` is nested 601 levels deep; at most 128 levels are accepted, as for any value of a run: flatten it/,
  },
  {
    name: 'tool args nested deeper than 128 levels',
    text: `turns:\n  - tool_calls:\n      - { op: file/read, args: { path: ${'['.repeat(200)}${']'.repeat(200)} } }\n`,
    line: 3,
    column: 32,
    message: /turn 1, tool call 1: `args` is nested 201 levels deep; at most 128 levels are accepted/,
  },
  { name: 'duplicate key', text: 'turns:\n  - text: a\n    text: b\n', line: 3, column: 5, message: /unique|duplicate/i },
  { name: 'usage with a bad count', text: 'turns:\n  - text: a\n    usage: { input_tokens: -1 }\n', line: 3, column: 28, message: /usage\.input_tokens/ },
];

for (const c of badScripts) {
  test(`scripted: located script error — ${c.name}`, () => {
    const e = scriptError(c.text);
    assert.equal(`${e.details.line}:${e.details.column}`, `${c.line}:${c.column}`, e.message);
    assert.ok(e.message.startsWith(`model.yaml:${c.line}:${c.column}: `), e.message);
    assert.match(e.message, c.message);
  });
}

test("scripted: a script nested so deep that the YAML parser's stack runs out says so, located", () => {
  const e = scriptError(`turns:\n  - finish: { a: ${'['.repeat(5_000)}${']'.repeat(5_000)} }\n`);
  assert.match(e.message, /^model\.yaml:2:\d+: Maximum call stack size exceeded \(the script nests too deep: at most 128 levels are accepted, as for any value of a run\)/);
});

test('scripted: a finish nested 128 levels deep is served', async () => {
  const turn = await createScriptedModel(`turns:\n  - finish: { a: ${'['.repeat(127)}${']'.repeat(127)} }\n`).invoke(req('p', 1));
  assert.ok(turn.finish);
});

test('scripted: every finding is reported, the first in the message', () => {
  const e = scriptError('turns:\n  - bogus: 1\n    text: a\n  - {}\n');
  assert.match(e.message, /\(and 1 more\)/);
  assert.equal((e.details.errors as unknown[]).length, 2);
});

test('scripted: usage is passed through', async () => {
  const model = createScriptedModel('turns:\n  - text: a\n    usage: { input_tokens: 10, output_tokens: 3 }\n');
  const plain: ModelRequest = req('x', 1);
  assert.deepEqual((await model.invoke(plain)).usage, { inputTokens: 10, outputTokens: 3 });
});

test('a script and a recording answer locally (a run not recorded yet is recorded after their turn, with its first commit); the OpenAI adapter does not', () => {
  assert.equal(createScriptedModel(SPEC_EXAMPLE, { file: 'model.yaml' }).local, true);
  assert.equal(createReplayModel([]).local, true);
  assert.notEqual(createOpenAiModel({ model: 'gpt-4o-mini', apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1' }).local, true);
});
