// A code step that printed to stderr, then raised: the run page's Details showed the error and its stack
// but not what the step printed — which `stagecraft run` shows under "Last stderr:". It is now under
// them, in its own box.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';

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
  await error.screenshot({ path: 'test-results/screens/error-stderr.png' });
});
