// What the studio's last action said (a run refused, a save) is read in full at 1024 and 1440 px.
// Before, it sat on one clipped line between the title and the buttons: at 1024 px a refused run
// showed nothing at all (the line had no width left), and at 1440 px the refusal was cut short.
import { expect, test } from '@playwright/test';
import { editorModelReady, replaceInModel } from './monaco';
import { atEachWidth } from './widths';

test.describe.configure({ timeout: 180_000 });

test('a refused run says why in full, clear of the buttons, at 1024 and 1440 px', async ({ page, request }) => {
  for (const name of ['notice_a', 'notice_b']) expect((await request.post('/api/skills', { data: { name, from: 'research_brief' } })).status()).toBe(201);
  let i = 0;
  await atEachWidth(page, '/skills/notice_a', async (width) => {
    if (i++) await page.goto('/skills/notice_b');
    await expect(page.locator('.react-flow').getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
    // the editor's skill.md model, not Monaco alone: the diagram can be drawn before the editor has mounted its model
    await editorModelReady(page, 'skill.md');
    // the edit again until Problems has it: a model's text set before the studio listens to it (between
    // the model's making and the editor's mount, a render apart on a loaded machine) never reached the analysis
    await expect(async () => {
      await replaceInModel(page, 'skill.md', [[/^entry: .*$/m, 'entry: nowhere']]);
      await expect(page.getByRole('list', { name: 'Problems' }).getByRole('listitem').first()).toContainText('entry: nowhere', { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const notice = page.getByRole('status').filter({ hasText: /^skill\.md has \d+ errors?: fix/ });
    await expect(notice).toBeVisible();
    const fit = await notice.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, sh: el.scrollHeight, ch: el.clientHeight, text: el.textContent }));
    expect(fit.cw, `${width} px: the notice has room (${JSON.stringify(fit)})`).toBeGreaterThan(200);
    expect(fit.sw, `${width} px: not cut on the right`).toBeLessThanOrEqual(fit.cw + 1);
    expect(fit.sh, `${width} px: not cut below (${JSON.stringify(fit)})`).toBeLessThanOrEqual(fit.ch + 1);
    // clear of the toolbar's buttons
    const box = (await notice.boundingBox())!;
    for (const name of ['Versions', 'Save', 'Run']) {
      const b = (await page.getByRole('button', { name: new RegExp(`^${name}`) }).first().boundingBox())!;
      const overlaps = box.x < b.x + b.width && b.x < box.x + box.width && box.y < b.y + b.height && b.y < box.y + box.height;
      expect(overlaps, `${width} px: the notice over ${name}`).toBe(false);
    }
    await page.screenshot({ path: `test-results/screens/studio-notice-${width}.png` });
  });
});

// A skill with no model script, on a server with no endpoint: the Model select showed a blank box.
test('with no model to run with, the Model select says so and the note says what to add', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'no_model', from: 'blank' } })).status()).toBe(201);
  const files = (await (await request.get('/api/skills/no_model')).json()).version.files as Record<string, string>;
  expect((await request.post('/api/skills/no_model/versions', { data: { files: { 'skill.md': files['skill.md'] } } })).status()).toBe(201);
  await atEachWidth(page, '/skills/no_model', async (width) => {
    const select = page.getByLabel('Model', { exact: true });
    await expect(select).toBeVisible({ timeout: 60_000 });
    expect(await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? ''), `${width} px`).toBe('No model to run with');
    await expect(page.getByText(/^No model to run with: add a model script \(model\.yaml/)).toBeVisible();
  });
});
