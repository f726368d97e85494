// Every edge of the studio's diagram is named in the words its cards are: a phase as "phase X", a
// postprocessor step as "step N", the contract as "caller contract". Before, only an edge's first end
// was put in words: the chain read "from post:0 to post:1" and "from post:4 to contract".
import { expect, test, type APIRequestContext } from '@playwright/test';
import { shotOf } from './shots';

test.describe.configure({ timeout: 180_000 });

/** skill `name`: the summarize example with its python step four more times, `steps` in all, saved */
async function savedLongChain(request: APIRequestContext, name: string, steps: number): Promise<void> {
  const got = await request.get('/api/skills/summarize');
  const files = ((await got.json()) as { version: { files: Record<string, string> } }).version.files;
  const step = '    - type: python\n      module: ./sanitize.py\n      function: sanitize\n      pure: true\n';
  expect(files['skill.md']).toContain(step);
  files['skill.md'] = files['skill.md'].replace('name: summarize', `name: ${name}`).replace(step, step.repeat(steps));
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name, from: 'summarize' } })).status());
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
}

const edgeNames = async (diagram: ReturnType<import('@playwright/test').Page['locator']>) =>
  (await diagram.locator('.react-flow__edge').evaluateAll((edges) => edges.map((e) => e.getAttribute('aria-label')))).sort();

test('the chain of five postprocessor steps: each edge named by its cards, down to the caller contract', async ({ page, request }) => {
  await savedLongChain(request, 'chain_words', 5);
  await page.goto('/skills/chain_words');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => edgeNames(diagram)).toEqual(
    ['from phase summarize to step 0', 'from step 0 to step 1', 'from step 1 to step 2', 'from step 2 to step 3', 'from step 3 to step 4', 'from step 4 to caller contract'].sort(),
  );
  // each end is a card of that name (a step's card adds its type: "step 3 python")
  for (const name of ['phase summarize (entry)', 'step 0 python', 'step 4 python', 'caller contract']) await expect(diagram.getByRole('group', { name, exact: true })).toHaveCount(1);
  for (const name of await edgeNames(diagram)) await expect(diagram.getByRole('img', { name: name!, exact: true })).toHaveCount(1);
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await page.waitForTimeout(500);
  await shotOf(diagram, 'test-results/screens/diagram-edge-words-long.png');
});

test('a skill with no postprocessor: its last phase to the caller contract', async ({ page }) => {
  await page.goto('/skills/research_brief');
  const diagram = page.locator('.react-flow');
  await expect(diagram.getByRole('group', { name: 'caller contract', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => edgeNames(diagram)).toEqual(['from phase gather to phase write', 'from phase write to caller contract']);
});
