// A user capability (a stage's module code) that printed and returned showed nothing of it: only a
// code step's printed output was recorded. The stage's Details now has the same "Printed output" part,
// its stdout and its stderr each in a box named as a code step's; a capability that printed nothing has none.
import { expect, test } from '@playwright/test';
import { ranTo } from './skill-runs';
import { shotOf } from './shots';

const SKILL_MD = [
  '---',
  'name: cap_output',
  'entry: answer',
  'graph: { answer: [] }',
  'output_schema: { type: object }',
  'capabilities:',
  '  - { name: loud, stage: post-model, uses: ./caps.mjs#loud }',
  '  - { name: quiet, stage: post-model, uses: ./caps.mjs#quiet }',
  '---',
  'You answer.',
  '',
].join('\n');
const CAPS = [
  'export function loud(ctx) {',
  "  console.log('checked round ' + ctx.round);",
  "  console.error('warning: no claims to check');",
  '}',
  'export function quiet() {}',
  '',
].join('\n');

test("a user capability's printed stdout and stderr are shown in its stage's Details; a quiet one has no such part", async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'cap_output' } })).status());
  const files = { 'skill.md': SKILL_MD, 'model.yaml': 'turns:\n  - phase: answer\n    finish: { n: 1 }\n', 'caps.mjs': CAPS };
  expect((await request.post('/api/skills/cap_output/versions', { data: { files } })).status()).toBe(201);
  const runId = await ranTo(request, 'cap_output', {}, 'completed');
  await page.goto(`/runs/${runId}`);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('listitem', { name: 'post-model loud/loud ok' }).getByRole('button').click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText('Printed output')).toBeVisible();
  await expect(details.getByLabel('stdout', { exact: true })).toHaveText('checked round 1');
  await expect(details.getByLabel('stderr', { exact: true })).toHaveText('warning: no claims to check');
  await shotOf(details, 'test-results/screens/capability-output.png');

  const quiet = timeline.getByRole('listitem', { name: 'post-model quiet/quiet ok' });
  await quiet.getByRole('button').click();
  await expect(quiet).toHaveAttribute('aria-current', 'true');
  await expect(details.getByText('Contribution', { exact: true })).toBeVisible();
  await expect(details.getByText('Printed output')).toHaveCount(0);
  await expect(details.getByLabel('stdout', { exact: true })).toHaveCount(0);
});
