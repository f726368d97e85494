// Browser tests: the built app (`next build` first — `npm test` does) served on
// 127.0.0.1 with a fresh embedded database, driven in Debian's Chromium (never
// a downloaded browser). Screenshots of every test are kept in test-results/.
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: './e2e',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // two browsers at once against the one server (a spec's own tests still run in order, in one
  // worker): a test mostly waits on the app and the browser, so one worker left a 2-core machine
  // half idle. E2E_WORKERS=1 runs the specs one at a time
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // A failing test runs once more, tracing that attempt (trace: 'on-first-retry'), and a test that
  // passes only on its retry still fails the suite (failOnFlakyTests): recording a trace of every
  // attempt ('retain-on-failure') cost the browser stage about half its CPU on this 2-core machine.
  retries: 1,
  failOnFlakyTests: true,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1440, height: 900 },
    screenshot: 'on',
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: `node e2e/serve.mjs ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/skills`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  },
});
