// A failed run's error shows once in full — in Details, with where it was raised and its stack — and
// its first line once in the run report's summary. Before, a run that failed outside any step said it
// four times (the summary, the report's Error row, the summary again in Details, Details' error), and
// a step's error twice in the report (the summary and the Failed step row). The report's row now names
// the code and links to the error in full; Details' "The run itself" opens on the error, no gap.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { failedTallyRun, itselfFailedRun } from './skill-runs';
import { atEachWidth } from './widths';

test.describe.configure({ timeout: 240_000 });

const times = async (where: Locator, text: string) => (await where.innerText()).split(text).length - 1;

/** whether `el` lies wholly inside the window */
const inWindow = (page: Page, el: Locator) =>
  el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });

/** the error's `words` whole in Details' error and once in the run report (its summary) */
async function saidOnce(page: Page, words: string, width: number) {
  const report = page.getByRole('region', { name: 'Run report' });
  const details = page.getByRole('region', { name: 'Details' });
  const error = details.getByRole('group', { name: 'Error' });
  await expect(error).toContainText(words);
  expect(await times(report, words), `in the report, its summary only, at ${width} px`).toBe(1);
  return { report, details, error };
}

test("a run that failed outside any step: its error's first line once in the report, whole once in Details", async ({ page, request }) => {
  const runId = await itselfFailedRun(request, 'once_failed');
  const words = 'The model script model.yaml has no turn for phase summarize round 3';

  await atEachWidth(page, `/runs/${runId}`, async (width) => {
    const { report, details, error } = await saidOnce(page, words, width);
    await expect(details).toContainText('The run itself');
    await expect(error).toContainText('model_script_exhausted');
    expect(await times(details, words), 'in Details: the error in full, not the summary again').toBe(1);
    await expect(report).toContainText('model_script_exhausted');
    // the title, then the error: the panel's own gap (10 px), not a paragraph's margins on top of it
    const title = details.getByText('The run itself', { exact: true });
    const gap = (await error.boundingBox())!.y - ((await title.boundingBox())!.y + (await title.boundingBox())!.height);
    expect(gap, `${width} px`).toBeLessThanOrEqual(11);
    await page.screenshot({ path: `test-results/screens/error-once-run-${width}.png`, fullPage: true });

    // elsewhere on the timeline, the report's row takes Details back to the error in full
    await page.getByRole('region', { name: 'Timeline' }).getByRole('listitem', { name: /file\/read ok/ }).first().click();
    await expect(details).not.toContainText('The run itself');
    await report.getByRole('button', { name: 'full error in Details' }).click();
    await expect(error).toContainText(words);
    await expect.poll(() => inWindow(page, error), { message: 'the error scrolled into the window' }).toBe(true); // the scroll may still be under way
  });
});

test("a failed step's error: its first line once in the report (the summary), whole in Details", async ({ page, request }) => {
  const runId = await failedTallyRun(request, 'once_tally');
  const words = "python function total in total.py raised KeyError: 'count'";
  await atEachWidth(page, `/runs/${runId}`, async (width) => {
    const { report, details } = await saidOnce(page, words, width);
    await expect(report).toContainText('Failed step');
    await report.getByRole('button', { name: 'full error in Details' }).click();
    await expect(details.getByLabel('Stack')).toContainText('Traceback');
    await page.screenshot({ path: `test-results/screens/error-once-step-${width}.png`, fullPage: true });
  });
});
