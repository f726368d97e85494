// The studio's analysis as the worker answers it: each reply says only what changed since the last
// (a keystroke in a description sends no diagram, findings or contract; one in the graph sends the
// diagram), and the key under the cursor is described from the last text analysed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Analyzer, type AnalyzeRequest } from './studio-analysis';

const files = Object.fromEntries(['skill.md', 'model.yaml', 'sanitize.py', 'input.json', 'report.txt'].map((f) => [f, readFileSync(`examples/summarize/${f}`, 'utf8')]));
const req = (id: number, f: Record<string, string>): AnalyzeRequest => ({ kind: 'analyze', id, files: f, knownSkills: ['summarize'], skillName: 'summarize' });

test('a reply leaves out what the last one said: the diagram, the findings and the input contract', () => {
  const a = new Analyzer();
  const first = a.analyze(req(1, files));
  assert.ok(first.diagram && first.diagnostics && 'inputContract' in first, 'the first analysis says everything');
  assert.equal(typeof first.bodyLine, 'number');
  const same = a.analyze(req(2, files));
  assert.deepEqual(Object.keys(same).sort(), ['bodyLine', 'id', 'kind']);
  // a keystroke in the description: no card changes
  const described = a.analyze(req(3, { ...files, 'skill.md': files['skill.md'].replace(/^description: (.*)$/m, 'description: $1 x') }));
  assert.equal(described.diagram, undefined);
  assert.equal(described.diagnostics, undefined);
  // a broken frontmatter: the diagram is gone (null) and the findings say why
  const broken = a.analyze(req(4, { ...files, 'skill.md': files['skill.md'].replace(/^entry: .*$/m, 'entry: [oops') }));
  assert.equal(broken.diagram, null);
  assert.ok(broken.diagnostics?.some((d) => d.rule === 'yaml_syntax'));
  // back to the text of the first: everything changed again since the last
  const back = a.analyze(req(5, files));
  assert.deepEqual(back.diagram, first.diagram);
  assert.deepEqual(back.diagnostics, first.diagnostics);
});

test('the key under the cursor is described from the last text analysed', () => {
  const a = new Analyzer();
  assert.equal(a.key({ kind: 'key', id: 1, line: 2, column: 2 }).keyInfo, null, 'nothing analysed yet');
  a.analyze(req(2, files));
  const line = files['skill.md'].split('\n').findIndex((l) => l.startsWith('entry:')) + 1;
  const info = a.key({ kind: 'key', id: 3, line, column: 2 }).keyInfo;
  assert.equal(info?.path, 'entry');
  assert.match(info?.description ?? '', /phase/);
  assert.equal(a.handle({ kind: 'key', id: 4, line: 1, column: 1 }).kind, 'key');
});

test('the diagram travels as a patch: only the cards that changed, and the page’s model is the worker’s', async () => {
  const { applyDiagramPatch } = await import('./studio-analysis');
  const a = new Analyzer();
  const first = a.analyze(req(1, files));
  assert.ok(first.diagram);
  assert.ok(first.diagram.rest, 'the first patch carries the whole model');
  let model = applyDiagramPatch(null, first.diagram);
  // a change to one phase's max_rounds: that card only, and the others stay the objects they were
  const edited = { ...files, 'skill.md': files['skill.md'].replace(/max_rounds: (\d+)/, 'max_rounds: 7') };
  assert.notEqual(edited['skill.md'], files['skill.md']);
  const r = a.analyze(req(2, edited));
  assert.ok(r.diagram, 'a card changed');
  assert.deepEqual(r.diagram.nodes.map((n) => n.kind), ['phase'], 'one card is sent');
  assert.equal(r.diagram.rest, undefined, 'the rest of the model is unchanged');
  const next = applyDiagramPatch(model, r.diagram);
  for (const n of model.nodes) if (n.id !== r.diagram.nodes[0].id) assert.equal(next.nodes.find((x) => x.id === n.id), n, `${n.id} is the same object`);
  // the edges are the same array: the diagram builds its edges from it, and builds none for a card's change
  assert.equal(next.edges, model.edges, 'the edges are the array they were');
  model = next;
  // whatever the patches, the page's model equals a fresh analysis of the same text
  const fresh = new Analyzer().analyze(req(9, edited));
  assert.deepEqual(model, applyDiagramPatch(null, fresh.diagram!));
  assert.throws(() => applyDiagramPatch(null, { nodes: [], order: ['phase:x'] }), /does not send/);
});

test('edits through the worker (its parse reused piece by piece) leave the page with what a full analysis says', async () => {
  const { applyDiagramPatch, analyzeForStudio } = await import('./studio-analysis');
  const { skillText } = await import('../../../scripts/bench-editor-skill');
  const base = skillText({ phases: 30, steps: 12 }, 'large');
  const bundle = (text: string) => ({ 'skill.md': text, 'rendering.py': '', 'steps.mjs': '', 'prep.py': '', 'caps.mjs': '' });
  const edits: [string, string][] = [
    ['the frontmatter', base.replace(/(description: .*)\n/, '$1 x\n')],
    ['a phase', base.replace(/( {2}p010:\n(?: {4}.*\n)*? {4}max_rounds: )\d+/, '$19')],
    ['a phase added', base.replace('  p005: [p006]\n', '  p005: [p006, extra]\n  extra: []\n').replace(/\n {2}p006:\n/, '\n  extra:\n    max_rounds: 2\n  p006:\n')],
    ['back to the start (the phase removed)', base],
    ['a postprocessor step', base.replace('into: out1\n', 'into: out1x\n')],
    ['the body', `${base}More.\n`],
    ['a syntax error', base.replace('  p003: [p004, p005]\n', '  p003: [p004, p005\n')],
    ['fixed', base],
  ];
  const a = new Analyzer();
  let page = { diagnostics: [] as unknown, diagram: null as ReturnType<typeof applyDiagramPatch> | null, inputContract: null as unknown };
  const apply = (r: ReturnType<Analyzer['analyze']>) => {
    page = {
      diagnostics: r.diagnostics ?? page.diagnostics,
      diagram: r.diagram === undefined ? page.diagram : r.diagram === null ? null : applyDiagramPatch(page.diagram, r.diagram),
      inputContract: r.inputContract === undefined ? page.inputContract : r.inputContract,
    };
  };
  apply(a.analyze({ kind: 'analyze', id: 1, files: bundle(base), knownSkills: [], skillName: 'large' }));
  let id = 2;
  for (const [what, text] of edits) {
    assert.ok(what === 'back to the start (the phase removed)' || what === 'fixed' || text !== base, `${what}: the edit changes the text`);
    apply(a.analyze({ kind: 'analyze', id: id++, files: bundle(text), knownSkills: [], skillName: 'large' }));
    const full = analyzeForStudio(bundle(text), { knownSkills: [], skillName: 'large' });
    assert.deepEqual(page.diagnostics, full.diagnostics, `${what}: the findings`);
    assert.deepEqual(page.diagram, full.diagram, `${what}: the diagram`);
    assert.deepEqual(page.inputContract, full.inputContract, `${what}: the input contract`);
  }
});

test('a keystroke sends only the files it changed: the Analyzer lays the patch over the files it has', async () => {
  const { filesPatch } = await import('./studio-analysis');
  assert.deepEqual(filesPatch(null, files), { files }, 'an Analyzer that has nothing is sent everything');
  const typed = { ...files, 'skill.md': files['skill.md'].replace(/^entry: .*$/m, 'entry: nowhere') };
  const patch = filesPatch(files, typed);
  assert.deepEqual(patch, { files: { 'skill.md': typed['skill.md'] }, isPatch: true }, 'only skill.md travels');
  const withoutReport = Object.fromEntries(Object.entries(typed).filter(([p]) => p !== 'report.txt'));
  assert.deepEqual(filesPatch(typed, withoutReport), { files: {}, isPatch: true, removed: ['report.txt'] });

  // the patched analyses say what analyses of the whole files say
  const patched = new Analyzer();
  const whole = new Analyzer();
  patched.analyze(req(1, files));
  whole.analyze(req(1, files));
  const r = patched.analyze({ ...req(2, files), ...patch });
  assert.ok(r.diagnostics?.some((d) => /nowhere/.test(d.message)), 'the patched skill.md is the one analysed');
  assert.deepEqual(r, whole.analyze(req(2, typed)));
  // a removed model script is gone from the bundle analysed (the next whole analysis agrees)
  const after = patched.analyze({ ...req(3, files), ...filesPatch(typed, withoutReport) });
  assert.deepEqual(after, whole.analyze(req(3, withoutReport)));
  assert.throws(() => new Analyzer().analyze({ ...req(1, files), isPatch: true }), /before the files it patches/);
});

test('priming changes no reply: a primed analyser answers a keystroke as an unprimed one does', () => {
  const fresh = new Analyzer();
  assert.equal(fresh.prime(), false, 'nothing analysed yet: nothing to prime');
  const primed = new Analyzer();
  const plain = new Analyzer();
  const first = primed.analyze(req(1, files));
  assert.deepEqual(plain.analyze(req(1, files)), first);
  for (let i = 0; i < 3; i++) assert.equal(primed.prime(), true);
  // the key's source is still the last request's
  const line = files['skill.md'].split('\n').findIndex((l) => l.startsWith('entry:')) + 1;
  assert.deepEqual(primed.key({ kind: 'key', id: 2, line, column: 2 }), plain.key({ kind: 'key', id: 2, line, column: 2 }));
  // keystrokes after priming: the same replies (the pieces it parsed are the whole parse's)
  const edits = [
    (t: string) => t.replace(/^description: (.*)$/m, 'description: $1 x'),
    (t: string) => t.replace(/^entry: .*$/m, 'entry: nowhere'),
    (t: string) => t.replace(/^entry: .*$/m, 'entry: [oops'),
  ];
  let text = files['skill.md'];
  edits.forEach((edit, i) => {
    text = edit(text);
    const f = { ...files, 'skill.md': text };
    assert.deepEqual(primed.analyze({ ...req(3 + i, { 'skill.md': text }), isPatch: true }), plain.analyze(req(3 + i, f)));
  });
});

test('a patch that changes nothing is answered at once, as unchanged; a change of settings is analysed', async () => {
  const { benchFiles, skillText, LARGE } = await import('../../../scripts/bench-editor-skill');
  const big = benchFiles(skillText(LARGE, 'big'));
  const settings = { knownSkills: ['big'], skillName: 'big' };
  const a = new Analyzer();
  const first = a.analyze({ kind: 'analyze', id: 1, files: big, ...settings });
  const nothing = { kind: 'analyze' as const, files: {}, isPatch: true, ...settings };
  const time = (id: number) => {
    const t = performance.now();
    const r = a.analyze({ ...nothing, id });
    return { r, ms: performance.now() - t };
  };
  const runs = [2, 3, 4].map(time);
  for (const { r } of runs) assert.deepEqual(Object.keys(r).sort(), ['bodyLine', 'id', 'kind'], 'nothing is said changed');
  assert.equal(runs[0].r.bodyLine, first.bodyLine);
  // the whole 100-phase analysis takes milliseconds; an unchanged one is not made at all
  const t = performance.now();
  a.analyze({ kind: 'analyze', id: 5, files: { ...big, 'skill.md': big['skill.md'].replace(/^description: (.*)$/m, 'description: $1 x') }, ...settings });
  const full = performance.now() - t;
  assert.ok(Math.min(...runs.map((r) => r.ms)) < full / 10, `an unchanged analysis took ${runs.map((r) => r.ms.toFixed(2))} ms, a real one ${full.toFixed(1)} ms`);
  // the same (no) files under another name are analysed again: the name's finding comes
  const renamed = a.analyze({ ...nothing, id: 6, skillName: 'other' });
  assert.ok(renamed.diagnostics?.some((d) => d.rule === 'name_mismatch'));
});

test('an over-indented line is one YAML error at one position, in the studio as in the CLI (the parser gives two there)', () => {
  const text = files['skill.md'].replace(/^(entry: .*)$/m, '$1\n  stray: 1');
  const reply = new Analyzer().analyze(req(1, { ...files, 'skill.md': text }));
  const yaml = (reply.diagnostics ?? []).filter((d) => d.rule === 'yaml_syntax');
  assert.equal(yaml.length, 1, JSON.stringify(yaml));
  assert.match(yaml[0].message, /^YAML syntax error: Nested mappings are not allowed in compact mappings\./);
});
