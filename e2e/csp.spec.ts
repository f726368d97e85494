// The strict script CSP does not get in the studio's way: the editor's workers (YAML, the editor's
// own) start from this origin and answer, the validator (ajv) checks as you type, the diagram draws,
// a run page follows its run — and the browser reports no CSP violation anywhere. The page refuses
// to be framed by another site. Every page is cross-origin isolated (COOP + COEP) with nothing of
// its own blocked by it, and the studio's analysis replies through shared memory (the diagram change
// drawn in the keystroke's own frame, components/studio/analysis/shared-reply.ts).
import { expect, test, type Page } from '@playwright/test';
import { hoverUntilShown } from './monaco';

/** CSP violations, as the document reports them (and the console's "Refused to …" lines). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to|Cross-Origin|COEP|CORP|ERR_BLOCKED_BY_RESPONSE/i.test(m.text())) refused.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...refused, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

test('the studio runs under the strict CSP: workers start, findings and hover answer, no violation', async ({ page }) => {
  const violations = await watchCsp(page);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const response = await page.goto('/skills/summarize');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  expect(await page.evaluate(() => window.crossOriginIsolated), 'the studio may share memory with its worker').toBe(true);
  const editor = page.getByRole('region', { name: 'skill.md editor' });
  // Monaco's first paint (its chunks loaded and compiled): past 10 s at load 14, the first studio page of a CI run
  await expect(editor.locator('.view-line').first()).toBeVisible({ timeout: 30_000 });
  // the YAML worker answers a hover (schema descriptions come from it)
  const entryKey = editor.locator('.view-lines span span').filter({ hasText: /^entry$/ }).first();
  const hover = page.locator('.monaco-hover').filter({ hasText: 'skill.md reference' });
  await hoverUntilShown(page, entryKey, hover, 30_000);
  // the validator (ajv compiles schemas in the page) marks a broken key as it is typed
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type('x');
  await expect(page.getByRole('region', { name: /Problems/ }).or(page.getByText(/problem/i).first())).toBeVisible();
  // the analysis replies through shared memory: replies applied in an animation frame say which (use-analysis.ts markDrawn)
  await page.evaluate(() => {
    const w = window as unknown as { __inFrame: number };
    w.__inFrame = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'stagecraft:analysis-drawn' && (e as PerformanceMark).detail?.frame !== undefined) w.__inFrame++;
    }).observe({ type: 'mark' });
  });
  for (const key of ['Backspace', 'y', 'Backspace', 'z', 'Backspace']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
  }
  await expect.poll(() => page.evaluate(() => (window as unknown as { __inFrame: number }).__inFrame), { message: 'replies taken in a frame from shared memory' }).toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/e2e/csp-studio.png' });
  expect(workers.length, 'Monaco started its workers').toBeGreaterThan(0);
  expect(workers.every((u) => u.startsWith('http://127.0.0.1'))).toBe(true);
  expect(await violations()).toEqual([]);
});

test('the home page, the runs list and the reference run with no CSP violation; another site cannot frame the app', async ({ page }) => {
  const violations = await watchCsp(page);
  for (const p of ['/', '/runs', '/docs/skill-md']) {
    const r = await page.goto(p);
    await expect(page.locator('main').first()).toBeVisible();
    expect(r?.headers()['cross-origin-embedder-policy'], p).toBe('require-corp');
    expect(await page.evaluate(() => window.crossOriginIsolated), p).toBe(true);
  }
  // a page of another origin framing the app: the browser refuses to show it
  await page.route('http://framer.test/', (route) => route.fulfill({ contentType: 'text/html', body: `<iframe id="f" src="${page.url().replace(/\/docs.*$/, '/')}"></iframe>` }));
  await page.goto('http://framer.test/');
  await expect.poll(() => page.frames().length).toBe(2);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await expect.poll(async () => (frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '')).not.toContain('Stagecraft');
  expect(await violations()).toEqual([]);
});
