// A run that failed at no step — its finish refused by the phase's contract after the retry — is
// rerun from the phase it stopped in (RunView.rerunFrom): its page says so in words for a phase.
// Before, it read "Take it on from the failed step … rerun from that step" naming a phase.
import { expect, test } from '@playwright/test';
import { ranTo, savedSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 120_000 });

test('a run whose finish its contract refused offers a rerun of the phase it stopped in, said for a phase', async ({ page, request }) => {
  // its finish must hold `text`; model.yaml finishes without it, on the turn and on its retry
  await savedSkill(request, 'contract', 'contract_words');
  const runId = await ranTo(request, 'contract_words', {}, 'failed');
  expect(((await (await request.get(`/api/runs/${runId}`)).json()) as { rerunFrom: string }).rerunFrom).toBe('draft');

  await page.goto(`/runs/${runId}`);
  const takeOn = page.getByRole('region', { name: 'Take it on from the phase it stopped in' });
  await expect(takeOn).toContainText('Phase draft did not finish, though none of its steps failed.');
  await expect(takeOn).not.toContainText('point at');
  // what stopped it there, named: the model contract
  await expect(takeOn).toContainText("The model contract stopped it: the phase's finish artifact did not satisfy its output schema");
  await expect(takeOn).toContainText('rerun that phase from its start');
  await expect(takeOn).not.toContainText('rerun from that step');
  await expect(page.getByRole('region', { name: 'Take it on from the failed step' })).toHaveCount(0);
  await expect(takeOn.getByRole('button', { name: 'Rerun from here' })).toBeEnabled();
  await shotOf(takeOn, 'test-results/screens/rerun-phase-words.png');
});
