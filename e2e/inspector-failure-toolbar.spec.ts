// A long failed run opens on its failure, in view, with the Timeline's toolbar (the failure count,
// Next failure, Failed only, zoom, Fit) in view too, below the site's sticky header: the opening
// scroll centred the failed step in the window, which put the toolbar under the header at 1024x768.
import { expect, test, type Page } from '@playwright/test';
import { ranTo, savedLoopSkill } from './skill-runs';
import { timelineSettled } from './timeline-settled';

test.describe.configure({ timeout: 240_000 });

const FAIL_AT_VISIT = 50;
const FAILED_STEP = `work#${FAIL_AT_VISIT}/pre/0 validate failed`;

/** how far `locator` is from being whole in the window below the site's header: 0 when it is */
async function hiddenBy(page: Page, name: string): Promise<Record<string, number>> {
  return page.evaluate((label) => {
    const header = Math.max(0, document.querySelector("header")?.getBoundingClientRect().bottom ?? 0);
    const timeline = document.getElementById('timeline-title')!.closest('section')!;
    const tools = [...timeline.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Next failure'))!.parentElement!.getBoundingClientRect();
    const step = [...timeline.querySelectorAll('li[aria-current="true"]')].find((li) => li.getAttribute('aria-label') === label)!.getBoundingClientRect();
    return {
      toolsAbove: Math.max(0, Math.round(header - tools.top)),
      stepAbove: Math.max(0, Math.round(header - step.top)),
      stepBelow: Math.max(0, Math.round(step.bottom - window.innerHeight)),
    };
  }, name);
}

test('a long failed run opens with its failure and the timeline toolbar both in view, at 1024 and 1440 wide', async ({ page, request }) => {
  await savedLoopSkill(request, 'toolbar_loop', FAIL_AT_VISIT + 10, { failAtVisit: FAIL_AT_VISIT });
  const runId = await ranTo(request, 'toolbar_loop', { n: 0 }, 'aborted');
  for (const [width, height] of [
    [1024, 768],
    [1440, 900],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto(`/runs/${runId}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const step = timeline.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: FAILED_STEP });
    await expect(step).toHaveAttribute('aria-current', 'true');
    await expect(step).toBeInViewport();
    // the visits about it settle (read, measured as drawn, the step kept in view) before the page is measured
    await timelineSettled(timeline, step);
    await page.screenshot({ path: `test-results/screens/failure-toolbar-${width}.png` });
    expect(await hiddenBy(page, FAILED_STEP)).toEqual({ toolsAbove: 0, stepAbove: 0, stepBelow: 0 });
    await expect(timeline.getByRole('button', { name: 'Next failure' })).toBeInViewport({ ratio: 1 });
  }
});
