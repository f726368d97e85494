// Layout checks at the widths the app is drawn for: a laptop (1024 px) and a desktop (1440 px).
import type { Page } from '@playwright/test';

export const WIDTHS = [1024, 1440] as const;

/** `url` opened at each width in turn (900 px high), then `look` at that width */
export async function atEachWidth(page: Page, url: string, look: (width: number) => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url);
    await look(width);
  }
}
