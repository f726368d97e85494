// Until its first picture is drawn, the studio's diagram pane says it is loading: a status, "Loading the
// diagram…", while its code arrives and while React Flow measures the cards and the first view is chosen
// — then the cards, already at that view (no other view shown first). Before, the words were not a
// status, and once the diagram's code had come the pane showed its controls over nothing, no word said
// (a large skill's 150 cards hidden while React Flow measured them: 2 s at a 4× slowed CPU).
// Every state of the pane is read as the page changes it (a MutationObserver: what a frame can paint),
// with the CPU slowed so that the states in between last.
import { expect, test } from '@playwright/test';
import { settled } from './diagram-view';
import { savedBenchSkill } from './skill-runs';
import { shotOf } from './shots';

test.describe.configure({ timeout: 240_000 });

/** a state of the pane: its status's words, whether cards are drawn in it (`shown`: and not transparent), its view */
type Seen = { status: string | null; drawn: boolean; shown: boolean; transform: string | null };

test('diagram: the pane says "Loading the diagram…" as a status until its cards are drawn at the first view', async ({ page, request }) => {
  await savedBenchSkill(request, 'loading_said');
  await page.addInitScript(() => {
    const seen: Seen[] = [];
    (window as unknown as { seen: Seen[] }).seen = seen;
    const look = () => {
      const pane = document.querySelector('section[aria-label="Skill diagram"]');
      if (!pane) return;
      const status = pane.querySelector('[role="status"]')?.textContent ?? null;
      const view = pane.getBoundingClientRect();
      const inPane = [...pane.querySelectorAll('.react-flow__node-phase')].filter((n) => {
        const b = n.getBoundingClientRect();
        return n.checkVisibility({ visibilityProperty: true }) && b.bottom > view.top && b.top < view.bottom && b.right > view.left && b.left < view.right;
      });
      const shown = inPane.some((n) => n.checkVisibility({ opacityProperty: true }));
      const transform = (pane.querySelector('.react-flow__viewport') as HTMLElement | null)?.style.transform ?? null;
      seen.push({ status, drawn: inPane.length > 0, shown, transform });
      if (shown && status === null) observer.disconnect();
    };
    const observer = new MutationObserver(look);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto('/skills/loading_said');
  const diagram = page.getByRole('region', { name: 'Skill diagram' });
  await expect(diagram.getByRole('group', { name: 'phase p000 (entry)', exact: true })).toBeVisible({ timeout: 120_000 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const opened = await settled(page);
  await expect(diagram.getByRole('status')).toHaveCount(0);
  await shotOf(diagram, 'test-results/screens/diagram-loading-drawn.png');
  const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
  expect(seen.some((s) => s.status === 'Loading the diagram…'), 'the pane said it was loading').toBe(true);
  for (const s of seen) {
    // the words go only when the cards are there, at the first view (a status read while the page's
    // HTML arrives may have only the start of its words: the stream can pause inside the element)
    if (s.status === null || !'Loading the diagram…'.startsWith(s.status)) expect(s.status === null && s.drawn && s.transform === opened, `the pane without its loading words: ${JSON.stringify(s)}`).toBe(true);
    // no other view is shown first
    if (s.shown) expect(s.transform, `cards shown: ${JSON.stringify(s)}`).toBe(opened);
  }
});

test('diagram: the loading status is shown while the diagram code arrives', async ({ page }) => {
  // the diagram's code held back: the pane says it is loading, as a status
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/_next/static/chunks/**', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes('Diagram canvas')) await held;
    await route.fulfill({ response, body });
  });
  await page.goto('/skills/summarize');
  const diagram = page.getByRole('region', { name: 'Skill diagram' });
  await expect(diagram.getByRole('status')).toHaveText('Loading the diagram…');
  await page.screenshot({ path: 'test-results/screens/diagram-loading-code.png' });
  release();
  await expect(diagram.getByRole('group', { name: /\(entry\)$/ })).toBeVisible({ timeout: 60_000 });
  await expect(diagram.getByRole('status')).toHaveCount(0);
  // the chunks still on their way when the test ends are not read
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
