// Screenshots of a part of a page, kept for a person to look at (test-results/screens). Playwright takes
// one only once the part holds still; on a loaded machine a test whose checks had all passed timed out
// there (a Details panel's, in CI). A part that does not hold still within SHOT_MS gives a screenshot of
// the page instead, said in the test's annotations and its output: a picture never fails a test.
import { errors, test, type Locator } from '@playwright/test';

export const SHOT_MS = 15_000;

/** `opts.timeout`: how long the part may take to hold still (SHOT_MS) */
export async function shotOf(part: Locator, path: string, opts: { scale?: 'css' | 'device'; timeout?: number } = {}): Promise<void> {
  const { timeout = SHOT_MS, ...rest } = opts;
  try {
    await part.screenshot({ path, timeout, ...rest });
  } catch (e) {
    if (!(e instanceof errors.TimeoutError)) throw e;
    const said = `${path}: the part did not hold still within ${timeout} ms, so the whole page was taken instead`;
    test.info().annotations.push({ type: 'screenshot', description: said });
    console.warn(said);
    await part.page().screenshot({ path, timeout: SHOT_MS });
  }
}
