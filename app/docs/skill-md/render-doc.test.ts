// The reference's table of contents: its sections, each with its subsections, so a frontmatter key
// (`graph`, `phases`) or a step type is one click from the top of a long page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderDoc } from './render-doc';

test('### headings are listed under the ## section they are in; a ### before any ## is left out', () => {
  const { toc } = renderDoc('### stray\n\n## Frontmatter keys\n\n### `name`\n\n### `graph`\n\n## Step types\n\n### validate\n\n```md\n## greet\n```\n');
  assert.deepEqual(toc, [
    { id: 'frontmatter-keys', text: 'Frontmatter keys', children: [{ id: 'name', text: 'name', children: [] }, { id: 'graph', text: 'graph', children: [] }] },
    { id: 'step-types', text: 'Step types', children: [{ id: 'validate', text: 'validate', children: [] }] },
  ]);
});

test("the reference's own table of contents names every frontmatter key and step type", () => {
  const { toc, html } = renderDoc(readFileSync(path.join(process.cwd(), 'docs', 'skill-md.md'), 'utf8'));
  const under = (section: string) => toc.find((t) => t.text === section)?.children.map((c) => c.text);
  assert.deepEqual(under('Frontmatter keys'), ['name', 'description', 'entry', 'graph', 'final_output', 'output_schema', 'artifacts', 'phases', 'capabilities', 'permissions', 'postprocessor']);
  assert.ok(under('Step types')?.includes('run_op'));
  for (const t of toc.flatMap((t) => [t, ...t.children])) assert.ok(html.includes(`id="${t.id}"`), `no heading with id ${t.id}`);
});
