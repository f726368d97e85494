// shotOf (e2e/shots.ts): a part that holds still is taken as itself; one that never does (moved on every
// frame) gives the page's screenshot, said in the test's annotations, and the test goes on.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { shotOf } from './shots';

/** a PNG's width and height, from its header */
const sizeOf = (file: string) => {
  const png = readFileSync(file);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
};

test('a part that holds still is taken alone; one that never does gives the page, said, without failing the test', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.setContent(`<div id="still" style="width:120px;height:40px;background:#ccc">still</div>
    <div id="moving" style="position:absolute;top:100px;width:120px;height:40px;background:#c66">moving</div>
    <script>let x = 0; const el = document.getElementById('moving'); (function go() { el.style.left = (x = (x + 7) % 300) + 'px'; requestAnimationFrame(go); })();</script>`);
  const dir = test.info().outputPath();
  await shotOf(page.locator('#still'), `${dir}/still.png`);
  expect(sizeOf(`${dir}/still.png`).width).toBeLessThanOrEqual(120 * 2);
  expect(test.info().annotations.filter((a) => a.type === 'screenshot')).toEqual([]);

  await shotOf(page.locator('#moving'), `${dir}/moving.png`, { timeout: 1_500 });
  expect(sizeOf(`${dir}/moving.png`).width).toBeGreaterThanOrEqual(800);
  expect(test.info().annotations.filter((a) => a.type === 'screenshot').map((a) => a.description)).toEqual([`${dir}/moving.png: the part did not hold still within 1500 ms, so the whole page was taken instead`]);
});
