// The runs list's filter controls show a change the moment it is made: the URL (which the list reads)
// catches up a moment later, and until then a ticked box must not untick, nor a chosen status snap back.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

test('Needs attention ticks and a status is chosen at once; the URL follows', async ({ page, request }) => {
  const started = await request.post('/api/runs', { data: { skill: 'summarize', input: { path: 'report.txt' } } });
  expect(started.status(), await started.text()).toBe(201);

  await page.goto('/runs');
  const attention = page.getByRole('checkbox', { name: 'Needs attention' });
  // check() fails when the box is not ticked right after the click
  await attention.check();
  await expect(page).toHaveURL(/[?&]attention=1/);
  await expect(attention).toBeChecked();

  const status = page.getByRole('combobox', { name: 'Status' });
  await status.selectOption('failed');
  expect(await status.inputValue()).toBe('failed');
  await expect(page).toHaveURL(/[?&]status=failed/);
  await expect(attention).toBeChecked();

  await attention.uncheck();
  await expect(page).not.toHaveURL(/attention=/);
  await expect(status).toHaveValue('failed');
});
