// The studio diagram's loop (check hands back to work, the card above it in the same column): the
// edge goes around the side of the column — out of check's side, up beside the cards, into work's
// side — and its label "next = work" is beside that climb, wholly visible. Before, React Flow's
// smoothstep climbed straight up behind the two cards and the work card hid half its label.
import { expect, test, type Page } from '@playwright/test';
import { savedLoopSkill } from './skill-runs';
import { atEachWidth } from './widths';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

type Rect = { left: number; top: number; right: number; bottom: number };

/** the loop's route sampled every 3 px (screen coordinates), its label's box, the cards' boxes, and the view's */
async function geometry(page: Page) {
  return page.locator('.react-flow').evaluate((flow) => {
    const box = (e: Element): Rect => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const edge = flow.querySelector('[aria-label="from phase check to phase work"]')!;
    const path = edge.querySelector('path.react-flow__edge-path') as SVGPathElement;
    const m = path.getScreenCTM()!;
    const points: { x: number; y: number }[] = [];
    for (let l = 0; l <= path.getTotalLength(); l += 3) {
      const p = path.getPointAtLength(l);
      points.push({ x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f });
    }
    const label = edge.querySelector('.react-flow__edge-textbg');
    const cards = [...flow.querySelectorAll('.react-flow__node')].filter((n) => !n.classList.contains('react-flow__node-lane')).map((n) => ({ id: n.getAttribute('data-id'), ...box(n) }));
    return { points, label: label ? box(label) : null, text: edge.textContent, cards, view: box(flow) };
  });
}

const overlap = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('diagram: the loop check → work goes around the side of the column, its label beside it, over no card', async ({ page, request }) => {
  await savedLoopSkill(request, 'loop_side', 2);
  await atEachWidth(page, '/skills/loop_side', async (width) => {
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
    // the edge's name is as before
    await expect(diagram.getByRole('img', { name: 'from phase check to phase work' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForTimeout(500); // its 200 ms animation
    const g = await geometry(page);
    expect(g.text).toBe('next = work');
    const work = g.cards.find((c) => c.id === 'phase:work')!;
    const check = g.cards.find((c) => c.id === 'phase:check')!;
    // out of check's side, into work's side (not its head): the route starts and ends at the cards' right edges
    const [start, end] = [g.points[0], g.points.at(-1)!];
    expect(Math.abs(start.x - check.right), JSON.stringify({ start, check })).toBeLessThan(2);
    expect(start.y).toBeGreaterThan(check.top + 10);
    expect(Math.abs(end.x - work.right), JSON.stringify({ end, work })).toBeLessThan(12); // the arrowhead's length short of it
    expect(end.y).toBeGreaterThan(work.top + 10);
    // no point of the route inside a card (a pixel in from its edges)
    for (const p of g.points) for (const c of g.cards) expect(p.x > c.left + 1 && p.x < c.right - 1 && p.y > c.top + 1 && p.y < c.bottom - 1, `${width} px: route at ${JSON.stringify(p)} inside ${c.id}`).toBe(false);
    // the label: drawn, over no card, and wholly inside the view
    expect(g.label).not.toBeNull();
    const label = g.label!;
    for (const c of g.cards) expect(overlap(label, c), `${width} px: label ${JSON.stringify(label)} over ${c.id}`).toBe(false);
    expect(label.left).toBeGreaterThanOrEqual(g.view.left);
    expect(label.right, `${width} px: label ${JSON.stringify(label)} in the view ${JSON.stringify(g.view)}`).toBeLessThanOrEqual(g.view.right - 16);
    expect(label.top).toBeGreaterThanOrEqual(g.view.top);
    await shotOf(diagram, `test-results/screens/diagram-loop-side-${width}.png`);
  });
});

test('diagram: two loops from one card climb apart, each label beside its own climb, over no card and no other label', async ({ page, request }) => {
  // the loop skill with a third phase, verify, that hands back to work and to check
  await savedLoopSkill(request, 'loop_two', 1, { editSkillMd: (t) => t.replace('  check: [work, done]\n', '  check: [verify]\n  verify: [work, check, done]\n') });
  await atEachWidth(page, '/skills/loop_two', async (width) => {
    const diagram = page.locator('.react-flow');
    await expect(diagram.getByRole('group', { name: 'caller contract' })).toBeVisible({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForTimeout(500);
    const g = await page.locator('.react-flow').evaluate((flow) => {
      const box = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      };
      const loops = ['work', 'check'].map((to) => {
        const edge = flow.querySelector(`[aria-label="from phase verify to phase ${to}"]`)!;
        const p = edge.querySelector('path.react-flow__edge-path') as SVGPathElement;
        const label = edge.querySelector('.react-flow__edge-textbg');
        return { to, right: box(p).right, label: label ? box(label) : null };
      });
      const cards = [...flow.querySelectorAll('.react-flow__node')].filter((n) => !n.classList.contains('react-flow__node-lane')).map((n) => ({ id: n.getAttribute('data-id'), ...box(n) }));
      return { loops, cards, view: box(flow) };
    });
    const [toWork, toCheck] = g.loops;
    expect(toWork.right - toCheck.right, `${width} px: the longer loop (to work) climbs outside the shorter (${JSON.stringify(g.loops)})`).toBeGreaterThan(20);
    for (const l of g.loops) {
      expect(l.label).not.toBeNull();
      for (const c of g.cards) expect(overlap(l.label!, c), `${width} px: the label of the loop to ${l.to} over ${c.id}`).toBe(false);
      expect(l.label!.right).toBeLessThanOrEqual(g.view.right - 16);
    }
    expect(overlap(toWork.label!, toCheck.label!), `${width} px: the two labels apart`).toBe(false);
    expect(toCheck.label!.right, `${width} px: the inner label ends before the outer climb`).toBeLessThan(toWork.right - 4);
    await shotOf(diagram, `test-results/screens/diagram-loop-two-${width}.png`);
  });
});
