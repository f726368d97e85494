// A code step that printed, then returned: what it printed was dropped, so the run page showed its
// input and output and nothing of its print()s — only a failed step's stderr was kept ("Last stderr").
// The step's Details now has a "Printed output" part, its stdout and its stderr each in a box of its
// own, shown as text (an escape sequence the code printed is not obeyed); a quiet step has none.
// Readable text, too: a tool's colour codes (ESC [ 31 m) showed as a box glyph and `[31m`; they are
// dropped, and any other control is shown as text (`\x1b`, `\x07`) — the record keeps the bytes.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

const SKILL_MD = [
  '---',
  'name: step_output',
  'entry: answer',
  'graph: { answer: [] }',
  'output_schema: { type: object }',
  'postprocessor: { output_schema: { type: object }, steps: [{ type: node, module: ./chatty.mjs, function: chatty }, { type: node, module: ./chatty.mjs, function: quiet }] }',
  '---',
  'You answer.',
  '',
].join('\n');
const CHATTY = [
  'export function chatty(v) {',
  "  console.log('rows: 3');",
  "  console.log('<b>not bold</b> \\x1b[31mnot red\\x1b[0m');",
  "  console.error('warning: the third row has no date');",
  "  console.error('\\x1b]0;retitled\\x07done');",
  '  return { counted: 3 };',
  '}',
  'export function quiet() {',
  '  return { done: true };',
  '}',
  '',
].join('\n');

test("a code step's printed stdout and stderr are shown in its Details; a quiet step has no such part", async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'step_output' } })).status());
  const files = { 'skill.md': SKILL_MD, 'model.yaml': 'turns:\n  - phase: answer\n    finish: { n: 1 }\n', 'chatty.mjs': CHATTY };
  expect((await request.post('/api/skills/step_output/versions', { data: { files } })).status()).toBe(201);
  const runId = await ranTo(request, 'step_output', {}, 'completed');
  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('listitem', { name: '__post__/0 node ok' }).getByRole('button').click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText('Printed output')).toBeVisible();
  await expect(details.getByLabel('stdout', { exact: true })).toHaveText('rows: 3\n<b>not bold</b> not red');
  await expect(details.getByLabel('stderr', { exact: true })).toHaveText('warning: the third row has no date\n\\x1b]0;retitled\\x07done');
  // the markup it printed is text, not markup
  await expect(details.locator('b')).toHaveCount(0);
  await shotOf(details, 'test-results/screens/step-output.png');

  const quiet = timeline.getByRole('listitem', { name: '__post__/1 node ok' });
  await quiet.getByRole('button').click();
  await expect(quiet).toHaveAttribute('aria-current', 'true');
  await expect(details.getByText('Output', { exact: true })).toBeVisible();
  await expect(details.getByText('Printed output')).toHaveCount(0);
  await expect(details.getByLabel('stdout', { exact: true })).toHaveCount(0);
});
