// The scrubber keeps the keyboard at its ends: a button that its own move disables (First or Previous
// reaching event 0, Next or Last reaching the last event) hands focus to the slider, so ←/→ and
// Home/End go on stepping instead of falling to the page.
import { expect, test } from '@playwright/test';

test.describe.configure({ timeout: 240_000 });

test('reaching either end with the buttons or keys keeps focus in the scrubber, and the keys go on stepping', async ({ page, request }) => {
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name: 'scrub_focus', from: 'summarize' } })).status());
  const started = await request.post('/api/runs', { data: { skill: 'scrub_focus', input: { path: 'report.txt' } } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  let run = { status: 'running', eventCount: 0 };
  await expect.poll(async () => (run = (await (await request.get(`/api/runs/${runId}`)).json()) as typeof run).status, { timeout: 60_000 }).toBe('completed');
  const n = run.eventCount;

  await page.goto(`/runs/${runId}`);
  const slider = page.getByRole('slider', { name: 'Step' });
  await expect(slider).toHaveValue(String(n));

  // First step: it disables itself; the slider has focus and → steps forward
  await page.getByRole('button', { name: 'First step' }).click();
  await expect(slider).toHaveValue('0');
  await expect(slider).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('1');

  // Previous step down to 0: the same
  await page.getByRole('button', { name: 'Previous step' }).click();
  await expect(slider).toHaveValue('0');
  await expect(slider).toBeFocused();

  // End from Next step: Next is disabled at the end; ← still steps back
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(slider).toHaveValue('1');
  await expect(page.getByRole('button', { name: 'Next step' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(slider).toHaveValue(String(n));
  await expect(slider).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveValue(String(n - 1));

  // Last step: the same at the other end
  await page.getByRole('button', { name: 'Last step' }).click();
  await expect(slider).toHaveValue(String(n));
  await expect(slider).toBeFocused();
});
