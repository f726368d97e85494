// A code step that printed to stderr, then raised: the run page's Details showed the error and its stack
// but not what the step printed — which `stagecraft run` shows under "Last stderr:". It is now under
// them, in its own box.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

const SKILL_MD = [
  '---',
  'name: error_stderr',
  'entry: answer',
  'graph: { answer: [] }',
  'output_schema: { type: object }',
  'postprocessor: { output_schema: { type: object }, steps: [{ type: node, module: ./loud.mjs, function: loud }] }',
  '---',
  'You answer.',
  '',
].join('\n');
const LOUD = "export function loud() {\n  console.error('loud: the rows file has 0 rows');\n  throw new Error('no rows to sum');\n}\n";

test("a failed code step's last stderr is shown under its error", async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'error_stderr' } })).status());
  const files = { 'skill.md': SKILL_MD, 'model.yaml': 'turns:\n  - phase: answer\n    finish: { n: 1 }\n', 'loud.mjs': LOUD };
  expect((await request.post('/api/skills/error_stderr/versions', { data: { files } })).status()).toBe(201);
  const runId = await ranTo(request, 'error_stderr', {}, 'aborted');
  await page.goto(`/runs/${runId}`);
  // a failed run opens with what failed selected
  const details = page.getByRole('region', { name: 'Details' });
  const error = details.getByRole('group', { name: 'Error' });
  await expect(error).toContainText('no rows to sum');
  await expect(error.getByLabel('Last stderr')).toHaveText('loud: the rows file has 0 rows');
  await shotOf(error, 'test-results/screens/error-stderr.png');
});

test("a failed code step's last stderr is readable: its colour codes dropped, any other control shown as text", async ({ page, request }) => {
  const colour = "export function loud() {\n  console.error('\\x1b[33mhint:\\x1b[0m the rows file is empty \\x1b]0;retitled\\x07');\n  throw new Error('no rows to sum');\n}\n";
  const skillMd = SKILL_MD.replace('name: error_stderr', 'name: error_stderr_colour');
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'error_stderr_colour' } })).status());
  const files = { 'skill.md': skillMd, 'model.yaml': 'turns:\n  - phase: answer\n    finish: { n: 1 }\n', 'loud.mjs': colour };
  expect((await request.post('/api/skills/error_stderr_colour/versions', { data: { files } })).status()).toBe(201);
  const runId = await ranTo(request, 'error_stderr_colour', {}, 'aborted');
  await page.goto(`/runs/${runId}`);
  const error = page.getByRole('region', { name: 'Details' }).getByRole('group', { name: 'Error' });
  await expect(error.getByLabel('Last stderr')).toHaveText('hint: the rows file is empty \\x1b]0;retitled\\x07');
  await shotOf(error, 'test-results/screens/error-stderr-colour.png');
});
