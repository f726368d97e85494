// The frontmatter validator the compiled CLI ships (ajv's standalone code, made at build time) says
// exactly what the one ajv compiles at run time says: the same verdict and the same errors, on the
// examples and on frontmatter that breaks the schema in several ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { ValidateFunction } from 'ajv';
import { newAjv } from './ajv';
import { skillFrontmatterSchema } from './schema';
import { frontmatterValidatorModule } from './frontmatter-standalone';

const frontmatterOf = (file: string) => parseYaml(readFileSync(file, 'utf8').split(/^---$/m)[1]) as Record<string, unknown>;

test('the precompiled frontmatter validator gives the verdict and the errors of the run-time one', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-frontmatter-'));
  try {
    const file = path.join(dir, 'frontmatter.mjs');
    // ajv's helpers resolve from this checkout, as they do from dist/ in the build
    writeFileSync(file, frontmatterValidatorModule(path.resolve('package.json')));
    const precompiled = (await import(pathToFileURL(file).href)).precompiledFrontmatter as ValidateFunction;
    const runtime = newAjv(false).compile(skillFrontmatterSchema);
    const examples = ['blog_writer', 'code_review', 'research_brief', 'summarize'].map((n) => frontmatterOf(path.join('examples', n, 'skill.md')));
    const broken: unknown[] = [
      { ...examples[0], phasez: {} },
      { ...examples[1], name: 'Bad Name' },
      { ...examples[2], graph: { a: 'not a list' } },
      { ...examples[3], postprocessor: { steps: [{ type: 'python', module: 3 }] } },
      { name: 'x' },
      'not an object',
    ];
    let invalid = 0;
    for (const doc of [...examples, ...broken]) {
      const a = precompiled(doc);
      const b = runtime(doc);
      assert.equal(a, b, JSON.stringify(doc).slice(0, 80));
      assert.deepEqual(precompiled.errors ?? null, runtime.errors ?? null);
      if (!a) invalid++;
    }
    assert.equal(invalid, broken.length, 'every broken document is refused, every example accepted');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
