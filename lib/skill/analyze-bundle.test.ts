/**
 * A bundle in memory, as the editor and the API hold it: cross-file findings
 * answered from the files map and located in skill.md, run_skill targets
 * against the workspace's skills, the bundle's own problems as findings of
 * the file they name, and the diagram from the same pass.
 */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { analyzeBundle } from './analyze-bundle';
import type { BundleFiles } from './bundle';
import { bundlePaths, isModelScript, MAX_BUNDLE_FILE_BYTES, MAX_BUNDLE_FILES } from './bundle';
import { diagramOf } from './diagram';
import { MINIMAL, show, withLines } from './fixtures/helpers';
import { BUNDLE_RULES, RULES } from './rules';

const POST = (steps: string) => withLines(`postprocessor:\n  output_schema: post\n  steps:\n${steps}`);
const RUN_SKILL = withLines(
  'postprocessor:\n  output_schema: post\n  steps:\n    - type: run_op\n      op: run_skill\n      args: { skill: summarizer }\n      into: summary\n' +
    'permissions:\n  ops: [run_skill]\n',
);
const found = (files: BundleFiles, opts?: Parameters<typeof analyzeBundle>[1]) =>
  analyzeBundle(files, opts).diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.rule}`);

describe('analyzeBundle: skill.md against the files map', () => {
  it('a minimal bundle has no findings, and a diagram', () => {
    const r = analyzeBundle({ 'skill.md': MINIMAL });
    assert.deepEqual(r.diagnostics, [], show(r.diagnostics));
    assert.ok(r.diagram);
    assert.equal(r.analysis.frontmatter?.name, 'demo');
  });

  it('a module naming no file of the bundle is located at its value, and says what to add', () => {
    const text = POST('    - type: python\n      module: ./render.py\n      function: f\n    - type: node\n      module: ./lib/../steps.mjs\n      function: g\n');
    const r = analyzeBundle({ 'skill.md': text, 'rendering.py': '', 'steps.mjs': '' });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.file, d.line, d.column, d.endLine, d.endColumn, d.rule, d.path]),
      [['skill.md', 16, 15, 16, 26, 'module_not_found', 'postprocessor.steps[0].module']],
    );
    assert.equal(r.diagnostics[0].message, 'The python module `./render.py` does not exist in the bundle: add a file `render.py` or fix the path.');
  });

  it('module paths inside folders, and capability modules, are looked up by their bundle path', () => {
    const text = withLines(
      'capabilities:\n  - name: mine\n    stage: post-model\n    uses: ./caps/check.mjs#check\n' +
        'postprocessor:\n  output_schema: post\n  steps:\n    - type: python\n      module: lib/helpers.py\n      function: f\n',
    );
    assert.deepEqual(found({ 'skill.md': text, 'caps/check.mjs': '', 'lib/helpers.py': '' }), []);
    assert.deepEqual(found({ 'skill.md': text }, { file: 'demo/skill.md' }), ['demo/skill.md:15:11 module_not_found', 'demo/skill.md:20:15 module_not_found']);
  });

  it('run_skill targets are checked against the known skills, and not at all without that list', () => {
    assert.deepEqual(found({ 'skill.md': RUN_SKILL }, { knownSkills: ['summarizer', 'other'] }), []);
    assert.deepEqual(found({ 'skill.md': RUN_SKILL }), []);
    const r = analyzeBundle({ 'skill.md': RUN_SKILL }, { knownSkills: ['summarise'] });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.severity, d.rule, d.line, d.column, d.path]),
      [['warning', 'run_skill_not_found', 17, 22, 'postprocessor.steps[0].args.skill']],
    );
    assert.match(r.diagnostics[0].message, /^run_skill target `summarizer` is not a skill of this workspace: .* create that skill or fix the name\.$/);
    // a skill that is a file of this bundle is not a skill of the workspace
    assert.deepEqual(found({ 'skill.md': RUN_SKILL, 'summarizer/skill.md': '' }, { knownSkills: [] }), ['skill.md:17:22 run_skill_not_found']);
  });

  it('with the stored skill’s name, a different `name:` is a warning at it', () => {
    const r = analyzeBundle({ 'skill.md': MINIMAL.replace('entry: draft', 'entry: drafts') }, { skillName: 'blog' });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.rule, d.severity, d.line, d.column, d.path]),
      [
        ['name_mismatch', 'warning', 2, 7, 'name'],
        ['unknown_phase', 'error', 3, 8, 'entry'],
      ],
    );
    assert.match(r.diagnostics[0].message, /^skill\.md says `name: demo`, but this is the skill blog: .* Set `name: blog`, or rename the skill\.$/);
    assert.deepEqual(found({ 'skill.md': MINIMAL }, { skillName: 'demo' }), []);
    assert.deepEqual(r.diagram?.unplaced.map((p) => p.rule), ['name_mismatch', 'unknown_phase']);
  });

  it('the diagram comes from the same analysis', () => {
    const r = analyzeBundle({ 'skill.md': POST('    - type: python\n      module: ./gone.py\n      function: f\n') });
    assert.deepEqual(r.diagram, diagramOf(r.analysis));
    assert.equal(r.diagram?.nodes.find((n) => n.id === 'post:0')?.label, 'step 0 python invalid');
  });
});

describe('analyzeBundle: the bundle’s own problems', () => {
  const bundleRule = (files: unknown, file?: string) =>
    analyzeBundle(files as BundleFiles, file ? { file } : {})
      .diagnostics.filter((d) => d.rule.startsWith('bundle_'))
      .map((d) => [d.rule, d.file, d.line, d.column, d.path, d.severity]);

  it('a missing skill.md is that finding alone, and no diagram', () => {
    const r = analyzeBundle({ 'notes.txt': 'hi' }, { file: 'my/skill.md' });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.rule, d.file, d.line, d.column, d.path]),
      [['bundle_no_skill_md', 'my/skill.md', 1, 1, '']],
    );
    assert.equal(r.diagram, null);
    assert.equal(r.analysis.frontmatter, undefined);
  });

  it('each problem is an error of the file it names (skill.md findings follow)', () => {
    const cases: [string, BundleFiles | unknown, string][] = [
      ['bundle_path_invalid', { 'skill.md': MINIMAL, 'a//b.txt': '' }, 'a//b.txt'],
      ['bundle_path_absolute', { 'skill.md': MINIMAL, '/etc/passwd': '' }, '/etc/passwd'],
      ['bundle_path_escape', { 'skill.md': MINIMAL, '../x.py': '' }, '../x.py'],
      ['bundle_path_vcs', { 'skill.md': MINIMAL, '.git/config': '[core]\n\tfsmonitor = touch /tmp/pwned\n' }, '.git/config'],
      ['bundle_file_binary', { 'skill.md': MINIMAL, 'img.png': 'PNG\0\0' }, 'img.png'],
      ['bundle_file_not_text', { 'skill.md': MINIMAL, 'n.json': 5 }, 'n.json'],
      ['bundle_file_too_large', { 'skill.md': MINIMAL, 'big.txt': 'x'.repeat(MAX_BUNDLE_FILE_BYTES + 1) }, 'big.txt'],
      ['bundle_too_large', { 'skill.md': MINIMAL, ...Object.fromEntries([1, 2, 3].map((i) => [`d${i}.txt`, 'x'.repeat(MAX_BUNDLE_FILE_BYTES)])) }, 'skill.md'],
      ['bundle_too_many_files', { 'skill.md': MINIMAL, ...Object.fromEntries(Array.from({ length: MAX_BUNDLE_FILES }, (_, i) => [`f${i}.txt`, ''])) }, 'skill.md'],
    ];
    for (const [rule, files, file] of cases) {
      assert.deepEqual(bundleRule(files), [[rule, file, 1, 1, '', 'error']], rule);
    }
    const r = analyzeBundle({ 'skill.md': MINIMAL.replace('entry: draft', 'entry: drafts'), '../x.py': '' });
    assert.deepEqual(
      r.diagnostics.map((d) => d.rule),
      ['bundle_path_escape', 'unknown_phase'],
    );
  });

  it('a skill.md that is not text is not analysed', () => {
    const r = analyzeBundle({ 'skill.md': 42 } as unknown as BundleFiles);
    assert.deepEqual(r.diagnostics.map((d) => d.rule), ['bundle_file_not_text']);
    assert.equal(r.diagram, null);
  });

  it('every bundle rule is in RULES; the bundle problems are errors', () => {
    for (const code of Object.keys(BUNDLE_RULES)) {
      assert.equal(RULES[code as keyof typeof RULES].severity, code === 'name_mismatch' ? 'warning' : 'error', code);
    }
  });
});

test('the file tabs: skill.md, then the code, then model scripts, then data, by path within each', () => {
  const files = {
    'z.json': '{}',
    'b.py': '',
    'model.yaml': 'turns:\n  - finish: {}\n',
    'config.yaml': 'limit: 3\n',
    'skill.md': '---\n',
    'a/steps.ts': '',
    'input.json': '{}',
    'lib.mjs': '',
  };
  assert.deepEqual(bundlePaths(files), ['skill.md', 'a/steps.ts', 'b.py', 'lib.mjs', 'model.yaml', 'config.yaml', 'input.json', 'z.json']);
  assert.equal(isModelScript('model.yml', 'turns: []\n'), true);
  assert.equal(isModelScript('notes.md', 'turns: []\n'), false);
});

test('a step function named nowhere in its module is a warning at `function:`, in the files map as on disk', () => {
  const text = POST('    - type: python\n      module: ./rendering.py\n      function: nothere\n    - type: node\n      module: ./x.mjs\n      function: total\n');
  const files = { 'skill.md': text, 'rendering.py': 'def to_html(value):\n    return value\n', 'x.mjs': 'const sum = (v) => v;\nexport { sum as total };\n' };
  const r = analyzeBundle(files);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.rule, d.line, d.column, d.path]),
    [['warning', 'function_not_found', 17, 17, 'postprocessor.steps[0].function']],
  );
  assert.equal(
    r.diagnostics[0].message,
    'The python function `nothere` is not defined in the module `./rendering.py`: the name occurs nowhere in it. Define it there (`def nothere(value):`), or fix the name.',
  );
  // named anywhere as a word (a definition, an export list, a re-export): nothing is said; a longer word does not count
  assert.deepEqual(found({ ...files, 'rendering.py': 'from helpers import nothere\n' }), []);
  assert.deepEqual(found({ ...files, 'rendering.py': 'from helpers import nothere\n', 'x.mjs': 'export function totals(v) { return v; }\n' }), ['skill.md:20:17 function_not_found']);
});
