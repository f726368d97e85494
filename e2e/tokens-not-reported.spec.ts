// A model endpoint that answers without `usage` used tokens it did not count: the run page says so —
// the report's Usage and the Timeline header give the reported turn's tokens and how many turns did
// not report, the cost as "at least" what the reported one cost — never "no model tokens used"; and
// the compare page says it on the side whose turns did not report, with no difference of tokens.
// On a server of its own, its model endpoint a local chat-completions server that reports usage on
// its first answer only.
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, ownServer } from './own-server';
import { fixtureFiles } from './skill-runs';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let answered = 0;
const endpoint = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const usage = ++answered === 1 ? { usage: { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 } } : {};
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '{"n": 1}' }, finish_reason: 'stop' }], ...usage }));
  });
});
let server: ChildProcess | null = null;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await ownServer(port, {
    E2E_SERVE_MODEL_BASE_URL: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`,
    STAGECRAFT_PRICES: JSON.stringify({ currency: 'USD', models: { '*': { input: 1000, output: 1000 } } }),
  });
});
test.afterAll(async () => {
  server?.kill('SIGTERM');
  endpoint.closeAllConnections();
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
});

async function ran(api: APIRequestContext): Promise<string> {
  const started = await api.post('/api/runs', { data: { skill: 'tokens_unreported', input: {}, model: 'openai:mock' } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await api.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('completed');
  return runId;
}

test('the run page and compare say which turns did not report their tokens', async ({ page, playwright }) => {
  const api = await playwright.request.newContext({ baseURL: base });
  expect((await api.post('/api/skills', { data: { name: 'tokens_unreported', from: 'blank' } })).status()).toBe(201);
  const saved = await api.post('/api/skills/tokens_unreported/versions', { data: { files: fixtureFiles('tokens_unreported', 'tokens_unreported') } });
  expect(saved.status(), await saved.text()).toBe(201);
  const mixed = await ran(api); // its first turn reported 40 → 2, the other two nothing
  const none = await ran(api);

  await page.goto(`${base}/runs/${mixed}`);
  const usage = page.locator('dt', { hasText: /^Usage$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(usage).toHaveText(/^40 → 2\u00a0tok from 1 reported turn · tokens not reported by the model endpoint for 2 of 3 turns · [\d.]+\u00a0m?s · at least 0\.042\u00a0USD$/, { timeout: 30_000 });
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText(/3 visits · 40 → 2\u00a0tok from 1 reported turn · tokens not reported by the model endpoint for 2 of 3 turns · [\d.]+\u00a0m?s model latency in total · at least 0\.042\u00a0USD/);
  await expect(timeline).toContainText('tokens not reported by the model endpoint · ');
  await expect(page.getByText('no model tokens used')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/tokens-not-reported-run.png' });
  await timeline.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/tokens-not-reported-timeline.png' });

  await page.goto(`${base}/runs/compare?a=${mixed}&b=${none}`);
  const b = page.getByRole('group', { name: 'Run B' });
  await expect(b).toContainText('tokens not reported by the model endpoint for all 3 turns', { timeout: 30_000 });
  await expect(b).toContainText('vs A: unknown (tokens not reported)');
  // no turn of B reported: its figure says so, not 0
  await expect(b.locator('dt', { hasText: /^Tokens$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText(/^not reportedtokens not reported/);
  await expect(page.getByRole('group', { name: 'Run A' })).toContainText('tokens not reported by the model endpoint for 2 of 3 turns');
  await page.screenshot({ path: 'test-results/screens/tokens-not-reported-compare.png' });
  await api.dispose();
});
