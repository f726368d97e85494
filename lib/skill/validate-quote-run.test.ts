// A skill.md with a YAML error is searched for the quote or bracket left open: that search must take time
// linear in the text, however many quotes a single-quoted scalar before the error holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateSkill } from './validate';
import { IN_MEMORY_BUNDLE } from './bundle-paths';

const validate = (text: string) => validateSkill(text, { file: 'skill.md', bundleDir: IN_MEMORY_BUNDLE, fileExists: () => false }).diagnostics;

test('a single-quoted scalar of 100,000 quotes before an unclosed [ is passed over in linear time (16 s before)', () => {
  const text = `---\nname: quote\ndescription: '${"''".repeat(50_000)}x'\nentry: draft\ngraph: [\n---\nbody\n`;
  const started = performance.now();
  const found = validate(text);
  const ms = performance.now() - started;
  assert.ok(ms < 2_000, `took ${Math.round(ms)} ms`);
  assert.ok(found.some((d) => d.line === 5 && d.message.includes('this `[` opens a flow sequence that is never closed')), JSON.stringify(found.map((d) => d.message.slice(0, 120))));
});

test('an unclosed single-quoted scalar is still found after a closed one of many quotes (an odd run at its end closes it)', () => {
  const text = `---\nname: quote\ndescription: '${"''".repeat(50_000)}x'\nentry: 'draft${"''".repeat(50_000)}\ngraph: {}\n---\nbody\n`;
  const started = performance.now();
  const found = validate(text);
  assert.ok(performance.now() - started < 2_000);
  assert.ok(found.some((d) => d.line === 4 && d.column === 8 && d.message.includes('never closed')), JSON.stringify(found.map((d) => `${d.line}:${d.column} ${d.message.slice(0, 120)}`)));
});
