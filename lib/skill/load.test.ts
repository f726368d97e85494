/**
 * Loading bundles from disk, and the promise that the validator, the schema,
 * the bundle analysis, the diagram model and the key descriptions import
 * nothing from Node (the editor runs them).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SkillValidationError, UsageError } from '../kernel/errors';
import { loadSkillBundle } from './load';
import { validateSkill } from './validate';

const here = path.dirname(fileURLToPath(import.meta.url));
const blogDir = path.join(here, 'fixtures', 'blog_writer');

describe('loadSkillBundle', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'stagecraft-skill-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('loads a bundle folder', async () => {
    const loaded = await loadSkillBundle(blogDir);
    assert.equal(loaded.file, path.join(blogDir, 'skill.md'));
    assert.equal(loaded.bundleDir, blogDir);
    assert.equal(loaded.plan.name, 'blog_writer');
    assert.equal(loaded.text, readFileSync(loaded.file, 'utf8'));
    assert.deepEqual(loaded.diagnostics, []);
  });

  it('loads the path of a skill.md, relative paths included', async () => {
    const loaded = await loadSkillBundle(path.relative(process.cwd(), path.join(blogDir, 'skill.md')));
    assert.equal(loaded.bundleDir, blogDir);
  });

  it('a path that does not exist is a UsageError that says what to pass', async () => {
    await assert.rejects(loadSkillBundle(path.join(tmp, 'nope')), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, /No skill bundle at .*nope: the path does not exist/);
      return true;
    });
  });

  it('a folder without skill.md is a UsageError', async () => {
    await assert.rejects(loadSkillBundle(tmp), (e: unknown) => e instanceof UsageError && /No skill\.md in /.test(e.message));
  });

  it('an invalid bundle throws SkillValidationError located in its file', async () => {
    writeFileSync(path.join(tmp, 'skill.md'), '---\nname: bad\nentry: a\ngraph:\n  a: []\nfinal_output: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - type: python\n      module: ./gone.py\n      function: f\n---\n');
    await assert.rejects(loadSkillBundle(tmp), (e: unknown) => {
      assert.ok(e instanceof SkillValidationError);
      assert.deepEqual(
        e.diagnostics.map((d) => [d.rule, d.file, d.line, d.column]),
        [['module_not_found', path.join(tmp, 'skill.md'), 11, 15]],
      );
      return true;
    });
  });
});

describe('runs in the browser', () => {
  /** Every lib/skill module reachable from `entry`, by relative import. */
  function reachable(entry: string, seen = new Set<string>()): Set<string> {
    if (seen.has(entry)) return seen;
    seen.add(entry);
    const src = readFileSync(entry, 'utf8');
    for (const m of src.matchAll(/from '(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(entry), m[1]);
      reachable(target.endsWith('.js') ? target.replace(/\.js$/, '.ts') : `${target}.ts`, seen);
    }
    return seen;
  }

  for (const entry of ['validate.ts', 'schema.ts', 'analyze-bundle.ts', 'diagram.ts', 'key-info.ts']) {
    it(`${entry} imports nothing from Node`, () => {
      for (const file of reachable(path.join(here, entry))) {
        if (file.includes(`${path.sep}node_modules${path.sep}`)) continue;
        const src = readFileSync(file, 'utf8');
        assert.ok(!/from 'node:|require\(/.test(src), `${path.relative(here, file)} imports a Node module`);
      }
    });
  }

  it("validateSkill asks the caller's fileExists about bundle files", () => {
    const text = readFileSync(path.join(blogDir, 'skill.md'), 'utf8');
    const { diagnostics } = validateSkill(text, { file: 'skill.md', bundleDir: '/elsewhere', fileExists: () => false });
    assert.deepEqual(
      diagnostics.map((d) => d.rule),
      ['module_not_found', 'module_not_found', 'run_skill_not_found'],
    );
  });
});
