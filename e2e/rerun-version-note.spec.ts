// `Rerun from here` says which version it reruns: with no newer version of the skill saved since the
// run, the same one again — said under the button (and as its description), so a rerun is not taken
// for a try of a fix; once a newer version is saved, that one, beside the version the run ran.
// Before, nothing said which version a rerun took. The note sits under the row of buttons: beside
// `Rerun from here` it pushed `Fork from here` away (onto a line of its own in Details).
import { expect, test, type Locator } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'tally');
const files = Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(path.join(FIXTURE, f), 'utf8').replace(/^name: tally$/m, 'name: tally_note')]));

/** `Rerun from here` and `Fork from here` side by side in `region`, the version note under them (it pushed the fork onto a line of its own in Details) */
async function expectSideBySide(region: Locator) {
  const rerun = await region.getByRole('button', { name: 'Rerun from here' }).boundingBox();
  const fork = await region.getByRole('button', { name: 'Fork from here' }).boundingBox();
  expect(rerun && fork).toBeTruthy();
  expect(Math.abs(rerun!.y - fork!.y), 'on one line').toBeLessThan(4);
  expect(fork!.x - (rerun!.x + rerun!.width), 'next to each other').toBeLessThan(24);
}

test('Rerun from here says it reruns the same version when none newer is saved, and names the newer one once saved', async ({ page, request }) => {
  expect((await request.post('/api/skills', { data: { name: 'tally_note' } })).status()).toBe(201);
  const saved = await request.post('/api/skills/tally_note/versions', { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  const ran = ((await saved.json()) as { version: { hash: string } }).version.hash;
  const started = await request.post('/api/runs', { data: { skill: 'tally_note', input: { path: 'note.txt' } } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('aborted');

  await page.goto(`/runs/${runId}`);
  const takeOn = page.getByRole('region', { name: 'Take it on from the failed step' });
  const rerun = takeOn.getByRole('button', { name: 'Rerun from here' });
  const same = `No newer version of the skill is saved: this reruns the same version (${ran.slice(0, 8)}).`;
  await expect(takeOn).toContainText(same);
  await expect(rerun).toHaveAccessibleDescription(same);
  await expect(rerun).toBeEnabled();
  await expectSideBySide(takeOn);
  await shotOf(takeOn, 'test-results/screens/rerun-same-version.png');
  // the Details panel's (the failed step is selected) says the same
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByRole('button', { name: 'Rerun from here' })).toHaveAccessibleDescription(same);
  await expectSideBySide(details);
  await shotOf(details, 'test-results/screens/rerun-same-version-details.png');

  // a fix saved: the rerun takes it, and says so beside the version the run ran
  const fixed = await request.post('/api/skills/tally_note/versions', { data: { files: { ...files, 'total.py': files['total.py'].replace('value["count"]', 'value["counts"]') } } });
  expect(fixed.status(), await fixed.text()).toBe(201);
  const latest = ((await fixed.json()) as { version: { hash: string } }).version.hash;
  await page.reload();
  const newer = `Reruns with the latest version, ${latest.slice(0, 8)} (this run ran ${ran.slice(0, 8)}).`;
  await expect(takeOn).toContainText(newer);
  await expect(rerun).toHaveAccessibleDescription(newer);
  await expect(takeOn).not.toContainText('No newer version');
  await shotOf(takeOn, 'test-results/screens/rerun-newer-version.png');
});
