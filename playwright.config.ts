// Browser tests: the built app (`next build` first — `npm test` does) served on
// 127.0.0.1 with a fresh embedded database, driven in Debian's Chromium (never
// a downloaded browser). Screenshots of every test are kept in test-results/.
import { defineConfig, devices } from '@playwright/test';
import { testBrowser } from './scripts/browser-path.mjs';

const PORT = Number(process.env.E2E_PORT ?? 3100);

// Specs that take every run slot of the app (STAGECRAFT_MAX_RUNS) to show what waits: another spec's
// runs would queue behind theirs. `npm test` runs this project on its own, after the other (each
// against a server of its own), one spec at a time
const RUN_LIMIT = [/\/queue\.spec\.ts$/, /\/driven-here-live\.spec\.ts$/];

function workersOf(given: string | undefined): number {
  if (given === undefined || given === '') return 2;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1) throw new Error(`E2E_WORKERS=${given}: give a whole number of browsers at once, 1 or more`);
  return n;
}

export default defineConfig({
  testDir: './e2e',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // two browsers at once against the one server (a spec's own tests still run in order, in one
  // worker): a test mostly waits on the app and the browser, so one worker left a 2-core machine
  // half idle. E2E_WORKERS=1 runs the specs one at a time
  workers: workersOf(process.env.E2E_WORKERS),
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1440, height: 900 },
    screenshot: 'on',
    // a failed test keeps its trace: actions and console, without the screencast and the DOM snapshots
    // of every action — recording those for each test cost the browser stage about half its CPU (8
    // specs: 71.6 s with them, 37.5 s without, as without any trace). Without DOM snapshots Playwright
    // records no requests either (`--trace on` for them). The failure's screenshot and its page's
    // accessibility tree (error-context.md) are kept beside it
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    launchOptions: {
      // Debian's chromium-headless-shell when installed (npm test installs it), else its chromium
      // (scripts/browser-path.mjs)
      executablePath: testBrowser(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: RUN_LIMIT },
    { name: 'run-limit', testMatch: RUN_LIMIT, workers: 1 },
  ],
  webServer: {
    command: `node e2e/serve.mjs ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/skills`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
    // stopped with SIGTERM, not Playwright's default SIGKILL of its group: serve.mjs then removes the server's data
    // folder, which a run of the browser tests outside npm test (which gives them a temp folder of its own) left in /tmp
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
