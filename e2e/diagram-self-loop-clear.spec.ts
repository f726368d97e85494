// A phase that hands back to itself, on a card two other loops also leave: the self-loop and its
// label keep clear of the other loops' legs and labels (it goes round the card's left, they its
// right). Before, it was drawn small at the right side and their legs ran across it and its label.
import { expect, test } from '@playwright/test';
import { savedLoopSkill } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

type Rect = { left: number; top: number; right: number; bottom: number };
const inside = (p: { x: number; y: number }, r: Rect) => p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom;

test('diagram: a phase looping on itself beside two other loops: no leg or label over its loop or label', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_self', 1, { editSkillMd: (t) => t.replace('  check: [work, done]\n', '  check: [verify]\n  verify: [verify, work, check, done]\n') });
  await atEachWidth(page, '/skills/loop_self', async (width) => {
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForTimeout(500);
    const loops = await diagram.evaluate((flow) =>
      ['verify', 'work', 'check'].map((to) => {
        const edge = flow.querySelector(`[aria-label="from phase verify to phase ${to}"]`)!;
        const path = edge.querySelector('path.react-flow__edge-path') as SVGPathElement;
        const m = path.getScreenCTM()!;
        const points: { x: number; y: number }[] = [];
        for (let l = 0; l <= path.getTotalLength(); l += 2) {
          const p = path.getPointAtLength(l);
          points.push({ x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f });
        }
        const r = edge.querySelector('.react-flow__edge-textbg')?.getBoundingClientRect();
        return { to, points, label: r ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null };
      }),
    );
    const [self, ...others] = loops;
    expect(self.label, `${width} px: the self-loop's label is drawn`).not.toBeNull();
    for (const o of others) {
      for (const p of o.points) expect(inside(p, self.label!), `${width} px: the loop to ${o.to} at ${JSON.stringify(p)} over the self-loop's label`).toBe(false);
      for (const p of self.points) expect(o.label && inside(p, o.label), `${width} px: the self-loop over the label of the loop to ${o.to}`).toBeFalsy();
    }
    await shotOf(diagram, `test-results/screens/diagram-self-loop-${width}.png`);
  });
});
