/**
 * The incremental parse is the whole parse: after every edit — in the frontmatter, in a phase, in a
 * postprocessor step, a phase added or removed, the Markdown body, text that does not parse — the
 * analysis made with a reused parse equals a full re-analysis (findings, diagram, and every YAML
 * node's value, kind and range), and only the pieces the edit touched are parsed again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isMap, isScalar, isSeq } from 'yaml';
import { skillText } from '../../scripts/bench-editor-skill';
import { analyzeBundle } from './analyze-bundle';
import { FrontmatterParser } from './incremental-parse';
import { parseFrontmatter, splitSkill, type SkillSplit } from './source';

/** a YAML tree as plain data: values, kinds and ranges (what the analysis reads of it) */
const shape = (n: unknown): unknown => {
  if (isMap(n)) return { map: n.items.map((p) => [shape(p.key), shape(p.value)]), range: n.range, flow: Boolean(n.flow) };
  if (isSeq(n)) return { seq: n.items.map(shape), range: n.range, flow: Boolean(n.flow) };
  if (isScalar(n)) return { value: n.value, type: n.type, range: n.range };
  return n ?? null;
};

const split = (text: string) => splitSkill(text) as SkillSplit;

/** analyses `text` with the parser (reusing its last parse) and afresh, and holds them equal */
function assertSame(parser: FrontmatterParser, text: string, what: string): void {
  const files = { 'skill.md': text, 'rendering.py': '', 'steps.mjs': '', 'prep.py': '', 'caps.mjs': '' };
  const full = analyzeBundle(files, { knownSkills: [] });
  const reused = analyzeBundle(files, { knownSkills: [], parseFrontmatter: (s) => parser.parse(s) });
  assert.deepEqual(reused.diagnostics, full.diagnostics, `${what}: the findings differ`);
  assert.deepEqual(reused.diagram, full.diagram, `${what}: the diagram differs`);
  assert.deepEqual(reused.analysis.frontmatter, full.analysis.frontmatter, `${what}: the frontmatter's value differs`);
  const s = split(text);
  if (!('frontmatter' in s)) return;
  const whole = parseFrontmatter(s).doc;
  if (whole.errors.length === 0) assert.deepEqual(shape(reused.analysis.source?.doc.contents), shape(whole.contents), `${what}: the YAML tree differs`);
}

/** how many pieces the last parse parsed again (the rest it reused) */
const parsedAgain = (p: FrontmatterParser) => (p.lastParse === 'whole' ? 'whole' : p.lastParse.pieces - p.lastParse.reused);

const LARGE = skillText({ phases: 40, steps: 18 });

describe('FrontmatterParser: a reused parse is the whole parse', () => {
  it('the first parse cuts the frontmatter into pieces and equals the whole parse', () => {
    const p = new FrontmatterParser();
    assertSame(p, LARGE, 'the first parse');
    assert.notEqual(p.lastParse, 'whole');
    assert.ok(p.lastParse !== 'whole' && p.lastParse.pieces > 10);
  });

  it('an edit in a top-level value parses one piece again', () => {
    const p = new FrontmatterParser();
    assertSame(p, LARGE, 'first');
    const edited = LARGE.replace(/(description: .*)\n/, '$1x\n');
    assert.notEqual(edited, LARGE);
    assertSame(p, edited, 'description');
    assert.equal(parsedAgain(p), 1);
  });

  it('an edit inside a phase, and inside a postprocessor step, parses one piece again', () => {
    const p = new FrontmatterParser();
    assertSame(p, LARGE, 'first');
    const phase = LARGE.replace(/( {2}p010:\n(?: {4}.*\n)*? {4}max_rounds: )\d+/, '$19');
    assert.notEqual(phase, LARGE);
    assertSame(p, phase, 'max_rounds');
    assert.equal(parsedAgain(p), 1);
    const step = phase.replace('into: out1\n', 'into: out1x\n');
    assert.notEqual(step, phase);
    assertSame(p, step, 'a step');
    assert.equal(parsedAgain(p), 1);
  });

  it('a phase added, then removed, equals the whole parse each time; the pieces after it are reused where they moved', () => {
    const p = new FrontmatterParser();
    assertSame(p, LARGE, 'first');
    const added = LARGE.replace('  p005: [p006]\n', '  p005: [p006]\n  extra: [p006]\n').replace(/\n {2}p006:\n/, '\n  extra:\n    max_rounds: 2\n  p006:\n');
    assert.notEqual(added, LARGE);
    assertSame(p, added, 'added');
    const afterAdding = parsedAgain(p);
    assert.ok(typeof afterAdding === 'number' && afterAdding <= 4, `parsed again: ${afterAdding}`);
    assertSame(p, LARGE, 'removed');
    const afterRemoving = parsedAgain(p);
    assert.ok(typeof afterRemoving === 'number' && afterRemoving <= 4, `parsed again: ${afterRemoving}`);
  });

  it('an edit in the Markdown body parses nothing again', () => {
    const p = new FrontmatterParser();
    assertSame(p, LARGE, 'first');
    assertSame(p, `${LARGE}\nOne more line.\n`, 'body');
    assert.equal(parsedAgain(p), 0);
  });

  it('text that does not parse is parsed whole (the same errors), and the next good text is pieces again', () => {
    const p = new FrontmatterParser();
    assertSame(p, LARGE, 'first');
    const broken = LARGE.replace('  p003: [p004, p005]\n', '  p003: [p004, p005\n');
    assert.notEqual(broken, LARGE);
    assertSame(p, broken, 'an unclosed [');
    assert.equal(p.lastParse, 'whole');
    assertSame(p, LARGE, 'fixed');
    assert.notEqual(p.lastParse, 'whole');
  });

  it('what a piece cannot read alone is parsed whole: anchors and aliases, repeated keys, a top-level line that is not a plain key', () => {
    const cases: [string, string][] = [
      ['an alias across pieces', LARGE.replace('final_output: result', 'final_output: &r result').replace('  output_schema: result', '  output_schema: *r')],
      ['a repeated top-level key', LARGE.replace('final_output: result\n', 'final_output: result\nfinal_output: result\n')],
      ['a repeated phase', LARGE.replace('  p005: [p006]\n', '  p005: [p006]\n  p005: [p006]\n')],
      ['a quoted top-level key', LARGE.replace('final_output: result', '"final_output": result')],
      ['a flow mapping over lines at column 0', LARGE.replace('final_output: result', 'final_output: {\na: 1 }')],
    ];
    for (const [what, text] of cases) {
      assert.notEqual(text, LARGE, what);
      const p = new FrontmatterParser();
      assertSame(p, text, what);
    }
  });

  it('two equal steps are two pieces: their nodes are not shared', () => {
    const p = new FrontmatterParser();
    const twice = LARGE.replace('  steps:\n', '  steps:\n    - type: validate\n      schema: { type: object }\n    - type: validate\n      schema: { type: object }\n');
    assertSame(p, twice, 'twice');
    const doc = p.parse(split(twice)).doc;
    const steps = (doc.getIn(['postprocessor', 'steps']) as { items: unknown[] }).items;
    assert.notEqual(steps[0], steps[1]);
  });

  it('random one-character edits of the example skills: every analysis equals a full one', () => {
    const texts = ['examples/blog_writer/skill.md', 'examples/research_brief/skill.md', 'lib/skill/fixtures/blog_writer/skill.md'].map((f) => readFileSync(f, 'utf8'));
    texts.push(skillText({ phases: 12, steps: 8 }));
    // a fixed sequence (a linear congruential generator): the same edits on every run
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n + n) % n;
    const alphabet = ['a', ' ', ':', '-', '\n', '#', '[', '"', '&', '*', '\t', '1'];
    for (const text of texts) {
      const p = new FrontmatterParser();
      const fmEnd = text.indexOf('\n---', 4);
      for (let k = 0; k < 25; k++) {
        const at = 4 + rand(fmEnd - 4);
        const edited = rand(3) === 0 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + alphabet[rand(alphabet.length)] + text.slice(at);
        assertSame(p, edited, `edit ${k} at ${at}`);
        if (k % 5 === 0) assertSame(p, text, `back to the text, after edit ${k}`);
      }
    }
  });
});
