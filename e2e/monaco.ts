// Helpers for browser tests of the editor.
import { expect, type Locator, type Page } from '@playwright/test';

/** Hovers `target` until Monaco's hover `hover` shows: the YAML worker may still be starting on the first hover. */
export async function hoverUntilShown(page: Page, target: Locator, hover: Locator, timeout = 20_000): Promise<void> {
  await expect(async () => {
    await page.mouse.move(0, 0);
    await target.hover();
    await expect(hover).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout });
}

type Models = { editor: { getModels(): { uri: { path: string }; getValue(): string; setValue(v: string): void }[] } };

/**
 * Waits until the editor holds a model for `file` (a bundle path: `skill.md`, `model.yaml`): Monaco
 * can be loaded, and the diagram drawn, before the editor has mounted the file's model.
 */
export async function editorModelReady(page: Page, file: string, timeout?: number): Promise<void> {
  await expect
    .poll(() => page.evaluate((name) => !!(window as unknown as { monaco?: Models }).monaco?.editor.getModels().some((x) => x.uri.path.endsWith(`/${name}`)), file), timeout === undefined ? {} : { timeout })
    .toBe(true);
}

/** `file`'s text with each `[pattern, replacement]` applied in turn, set in its editor model as if typed. */
export async function replaceInModel(page: Page, file: string, edits: [RegExp, string][]): Promise<void> {
  await page.evaluate(
    ([name, all]) => {
      const model = (window as unknown as { monaco: Models }).monaco.editor.getModels().find((x) => x.uri.path.endsWith(`/${name}`))!;
      let text = model.getValue();
      for (const [source, flags, replacement] of all) text = text.replace(new RegExp(source, flags), replacement);
      model.setValue(text);
    },
    [file, edits.map(([re, to]) => [re.source, re.flags, to])] as [string, [string, string, string][]],
  );
}
