// The model's text, its code fence taken off, in time linear in the text (a reply is any length).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unfenced } from './openai';

/** the pattern the fence was taken off with before, matched by the JavaScript engine (on short texts only) */
const FENCED = /^```(?:json)?\s*([\s\S]*?)\s*```$/;

test('a fence with white space and no end is passed in linear time: 10,000 spaces took minutes', () => {
  for (const text of ['```json' + ' '.repeat(200_000) + 'x', '```' + '\n '.repeat(100_000) + 'a', '```' + ' '.repeat(200_000) + '```', '```json\n{"a":1}' + ' '.repeat(200_000) + '```']) {
    const started = performance.now();
    unfenced(text);
    const ms = performance.now() - started;
    assert.ok(ms < 500, `${JSON.stringify(text.slice(0, 12))}… (${text.length} characters) took ${Math.round(ms)} ms`);
  }
  assert.equal(unfenced('```json\n{"a":1}' + ' '.repeat(200_000) + '```'), '{"a":1}');
});

test('the fence comes off as the pattern took it off: every short text of fence, json, space and brace characters', () => {
  const alphabet = ['`', 'j', 's', 'o', 'n', ' ', '\n', '{', '}', '\u00a0'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 20_000; i++) {
    const inner = Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (const text of [inner, '```' + inner, inner + '```', '```' + inner + '```', ' ```json' + inner + '``` ', '```json' + inner]) {
      assert.equal(unfenced(text), text.trim().replace(FENCED, '$1'), JSON.stringify(text));
    }
  }
  assert.equal(unfenced('```json\n{"title":"Plain"}\n```'), '{"title":"Plain"}');
  assert.equal(unfenced('```\n{}\n```'), '{}');
  assert.equal(unfenced('{"a":1}'), '{"a":1}');
});
