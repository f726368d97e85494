// npm run bench:inspector — the run inspector in the browser, on the built app (`next build` first),
// in ONE Chromium session (Debian's /usr/bin/chromium), printed as one JSON line:
//   events                     the loop run's event count (bench/inspector-fixture.ts; a skill that loops)
//   floorMs                    the floor: the page fetching every event through the API's pages
//                              (GET /api/runs/<id>/events?after=&limit=1000) and parsing them (median of 3)
//   firstPaintMs               the run page from navigation start to its timeline (the region `Timeline`)
//                              on screen (median of 3 warm loads); `firstPaintOf` says what was waited for:
//                              'timeline', or, on a run page without one yet, 'run status' (its first content)
//   firstPaintColdMs           the same, the first load (the server folds the run's log then)
//   firstPaintRatio            firstPaintMs / floorMs (target ≤ 3)
//   scrubP50Ms, scrubP95Ms     one scrubber step: → pressed on the slider until the region `State at step`
//                              shows the new event (target p95 ≤ 50)
//   jumpP95Ms                  a jump of the slider to a random event (nothing prefetched there)
//   runs                       runs in the store for the list
//   runsFirstPaintMs           /runs from navigation start to the list `Runs` on screen
//   runsFilterMs               a filter change (status: failed) until the list shows only failed runs
// The store is the embedded one (PGlite), made here: the loop run through lib/server, then the runs
// for the list as copies of it written in one SQL statement; then the app starts on it
// (lib/server/http/testing's startApp).
// --tiny (or BENCH_TINY=1): a run of ~300 events, 300 runs and 10 steps, for `npm test`.
import { chromium, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hostFor } from '../lib/server/host';
import { startApp } from '../lib/server/http/testing/app-server';
import { openStore } from '../lib/store';
import { makeLoopRun } from './inspector-fixture';
import { COMPILED } from './compiled';

const isTiny = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';
const EVENTS = isTiny ? 300 : Number(process.env.BENCH_EVENTS ?? 10_000);
const RUNS = isTiny ? 300 : Number(process.env.BENCH_RUNS ?? 10_000);
const STEPS = isTiny ? 10 : 100;
const JUMPS = isTiny ? 5 : 30;
const LOADS = 3;

/** resolves once React has hydrated the element (it holds React's props then) */
const whenHydrated = (l: Locator) =>
  l.evaluate(async (el) => {
    // (no named function in here: tsx would wrap it in a helper the page does not have)
    while (!Object.keys(el).some((k) => k.startsWith('__reactProps'))) await new Promise((ok) => setTimeout(ok, 50));
  });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const r1 = (x: number) => Math.round(x * 10) / 10;
let seed = 7;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) + 1;

// ------------------------------------------------------------ the store
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-bench-insp-'));
const store = await openStore({ dataDir });
const host = hostFor({ store, skills: store.skills, env: { ...process.env, STAGECRAFT_DATA_DIR: dataDir }, cwd: process.cwd() });
const made = await makeLoopRun(host, { events: EVENTS });
// the list's runs: copies of the loop run's row, a minute apart, a fifth of them failed, two skills
await (await store.db()).$executeRawUnsafe(
  `INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "skill_version_id", "input", "model", "status", "output", "error", "report", "created_at", "updated_at")
   SELECT 'run_bench_' || lpad(g::text, 6, '0'),
          CASE WHEN g % 3 = 0 THEN 'loop_other' ELSE "skill_name" END, "skill_hash", "skill_text", "bundle_dir", "skill_version_id",
          jsonb_build_object('n', g), "model",
          CASE WHEN g % 5 = 0 THEN 'failed' ELSE 'completed' END,
          CASE WHEN g % 5 = 0 THEN NULL ELSE "output" END,
          CASE WHEN g % 5 = 0 THEN jsonb_build_object('code', 'stage_crashed', 'message', 'the check of loop ' || g || ' crashed') END,
          CASE WHEN g % 5 = 0 THEN jsonb_set("report"::jsonb, '{outcome}', '"failed"') ELSE "report"::jsonb END,
          "created_at" - make_interval(mins => g), "created_at" - make_interval(mins => g) + make_interval(secs => 3 + g % 40)
   FROM "runs", generate_series(1, $2::int - 1) AS g WHERE "id" = $1`,
  made.runId,
  RUNS,
);
await store.close();

const app = await startApp({ dataDir });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // a cold run page of a long run answers once the server has folded its log: wait for it
  page.setDefaultNavigationTimeout(300_000);
  // each figure as it is measured, on stderr (the JSON line is the result)
  const note = (what: string, v: unknown) => console.error(`bench:inspector ${what}: ${JSON.stringify(v)}`);
  // the moment (ms since navigation start) an element matching a selector was first in the document
  await page.addInitScript(() => {
    const w = window as unknown as { __firstSeen: Record<string, number>; __watch: (sel: string) => void };
    w.__firstSeen = {};
    const watched = ['[aria-labelledby="timeline-title"]', '[aria-label="Run status"]', '[aria-label="Runs"]'];
    const check = () => {
      for (const sel of watched) if (!(sel in w.__firstSeen) && document.querySelector(sel)) w.__firstSeen[sel] = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    check();
  });

  // ---------------------------------------------------------- the floor
  // a page of the app that asks for nothing itself (its not-found page; an API answer's CSP allows no fetch)
  await page.goto(`${app.url}/bench-floor`);
  const floors: number[] = [];
  for (let i = 0; i < LOADS + 1; i++) {
    const ms = await page.evaluate(async (id) => {
      const t = performance.now();
      let after = 0;
      let n = 0;
      for (;;) {
        const res = await fetch(`/api/runs/${id}/events?after=${after}&limit=1000`, { cache: 'no-store' });
        const pageOf = JSON.parse(await res.text()) as { events: { seq: number }[]; next: number | null };
        n += pageOf.events.length;
        if (pageOf.next === null || pageOf.events.length === 0) break;
        after = pageOf.next;
      }
      if (n === 0) throw new Error('no events read');
      return performance.now() - t;
    }, made.runId);
    if (i > 0) floors.push(ms); // the first read warms the database's pages
  }
  const floorMs = pct(floors, 50);
  note('floorMs', floors);

  // ---------------------------------------------------------- the run page's first paint
  const runUrl = `${app.url}/runs/${made.runId}`;
  // a run page with a timeline paints it (with the page: the server hands it its timeline); a page
  // without one yet is measured to its first content, the run's status — decided on the first load
  // (the region is named by its heading, timeline-title)
  let paintSel = '[aria-labelledby="timeline-title"]';
  const paintOf = async (p: Page, isFirst: boolean): Promise<number> => {
    if (isFirst) {
      await p.getByRole('region', { name: 'Run status' }).waitFor({ timeout: 180_000 });
      const hasTimeline = await p
        .locator(paintSel)
        .first()
        .waitFor({ timeout: 180_000 })
        .then(() => true)
        .catch(() => false);
      if (!hasTimeline) paintSel = '[aria-label="Run status"]';
    } else await p.locator(paintSel).first().waitFor({ timeout: 180_000 });
    // when the observer saw it first; else (it was in the first HTML chunk, before any mutation) now,
    // which is later than the paint by at most one of Playwright's polls
    return p.evaluate((s) => (window as unknown as { __firstSeen: Record<string, number> }).__firstSeen[s] ?? performance.now(), paintSel);
  };
  await page.goto(runUrl, { waitUntil: 'commit' });
  const coldMs = await paintOf(page, true);
  const cold = { ms: coldMs, of: paintSel.includes('timeline-title') ? 'timeline' : 'run status' };
  const warm: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto(runUrl, { waitUntil: 'commit' });
    warm.push(await paintOf(page, false));
  }
  const firstPaintMs = pct(warm, 50);
  note('firstPaint', { cold, warm });

  // ---------------------------------------------------------- scrubbing
  const slider = page.getByRole('slider', { name: 'Step' });
  const state = page.getByRole('region', { name: 'State at step' });
  const lastSeq = Number(await slider.getAttribute('max'));
  const shows = (k: number) => state.getByRole('heading', { level: 3, name: k === 0 ? /^Before the first event/ : `Event ${k} of ${lastSeq}` });
  const start = Math.floor(lastSeq / 2);
  await whenHydrated(slider);
  // the page painted from its HTML may not be hydrated yet (a long run's is a few seconds behind
  // under load): a move before then is lost, so it is made again until the region follows it
  for (let attempt = 1; ; attempt++) {
    await slider.fill(String(start));
    if (await shows(start).waitFor({ timeout: 10_000 }).then(() => true, () => false)) break;
    if (attempt === 12) throw new Error(`the scrubber did not show event ${start}`);
  }
  // in the page: from the key's dispatch to the frame after the region shows the event asked for
  await page.evaluate(() => {
    const w = window as unknown as { __scrub: { t0: number; t1: number; want: string } };
    w.__scrub = { t0: 0, t1: 0, want: '' };
    document.addEventListener('keydown', () => (w.__scrub.t0 = performance.now()), true);
    document.addEventListener('input', () => (w.__scrub.t0 = w.__scrub.t0 || performance.now()), true);
    const region = document.querySelector('[aria-label="State at step"]')!;
    new MutationObserver(() => {
      const h = region.querySelector('h3')?.textContent ?? '';
      if (w.__scrub.want && !w.__scrub.t1 && h === w.__scrub.want) requestAnimationFrame(() => (w.__scrub.t1 = performance.now()));
    }).observe(region, { childList: true, subtree: true, characterData: true });
  });
  const arm = (k: number) =>
    page.evaluate((want) => {
      const w = window as unknown as { __scrub: { t0: number; t1: number; want: string } };
      w.__scrub = { t0: 0, t1: 0, want };
    }, `Event ${k} of ${lastSeq}`);
  const took = async () => {
    await page.waitForFunction(() => (window as unknown as { __scrub: { t1: number } }).__scrub.t1 > 0, undefined, { timeout: 60_000, polling: 'raf' });
    return page.evaluate(() => {
      const s = (window as unknown as { __scrub: { t0: number; t1: number } }).__scrub;
      return s.t1 - s.t0;
    });
  };
  const steps: number[] = [];
  await slider.focus();
  for (let k = start + 1; k <= Math.min(lastSeq, start + STEPS); k++) {
    await arm(k);
    await page.keyboard.press('ArrowRight');
    steps.push(await took());
  }
  note('scrubSteps', steps);
  const jumps: number[] = [];
  for (let i = 0; i < JUMPS; i++) {
    const k = rand(lastSeq);
    const current = Number(await slider.inputValue());
    if (k === current) continue;
    await arm(k);
    await slider.fill(String(k));
    jumps.push(await took());
  }

  // ---------------------------------------------------------- /runs with many runs
  await page.goto(`${app.url}/runs`, { waitUntil: 'commit' });
  const runsList = page.locator('[aria-label="Runs"]').first();
  await runsList.waitFor({ timeout: 120_000 });
  const runsFirstPaintMs = await page.evaluate(() => (window as unknown as { __firstSeen: Record<string, number> }).__firstSeen['[aria-label="Runs"]'] ?? performance.now());
  // the filter is measured on the hydrated page (a change made before React holds the select is lost)
  const status = page.getByLabel('Status', { exact: true });
  await whenHydrated(status);
  const t = Date.now();
  // a change the page did not take (React attached its handlers, but the first commit was still
  // under way) shows as a URL without the filter: made again, from `any`
  for (let attempt = 0; attempt < 4; attempt++) {
    await status.selectOption('failed');
    const taken = await page
      .waitForFunction(() => location.search.includes('status=failed'), undefined, { timeout: 8_000 })
      .then(() => true, () => false);
    if (taken) break;
    await status.selectOption('');
  }
  const apply = page.getByRole('button', { name: 'Filter', exact: true });
  if (await apply.isVisible().catch(() => false)) await apply.click();
  // every run's row in view says failed (rows are those that link to a run)
  await page
    .waitForFunction(
      () => {
        const list = document.querySelector('[aria-label="Runs"]');
        const rows = list ? [...list.querySelectorAll('tr, [role="row"], li')].filter((r) => r.querySelector('a[href^="/runs/run"]')).slice(0, 20) : [];
        return rows.length > 0 && rows.every((r) => /failed/.test(r.textContent ?? ''));
      },
      undefined,
      { timeout: 120_000 },
    )
    .catch(async (e) => {
      await page.screenshot({ path: 'test-results/bench-inspector-filter.png' });
      const rows = await page.evaluate(() => [...document.querySelectorAll('[aria-label="Runs"] tr')].slice(0, 5).map((r) => r.textContent));
      throw new Error(`the list did not narrow to failed runs (${page.url()}): ${JSON.stringify(rows)}`, { cause: e });
    });
  const runsFilterMs = Date.now() - t;

  console.log(
    JSON.stringify({
      bench: 'inspector',
      tiny: isTiny,
      compiled: COMPILED,
      events: made.events,
      floorMs: r1(floorMs),
      firstPaintOf: cold.of,
      firstPaintMs: r1(firstPaintMs),
      firstPaintColdMs: r1(cold.ms),
      firstPaintRatio: r1(firstPaintMs / floorMs),
      firstPaintTarget: 3,
      scrubSteps: steps.length,
      scrubP50Ms: r1(pct(steps, 50)),
      scrubP95Ms: r1(pct(steps, 95)),
      scrubTargetMs: 50,
      jumpP95Ms: r1(pct(jumps, 95)),
      runs: RUNS,
      runsFirstPaintMs: r1(runsFirstPaintMs),
      runsFilterMs,
      load1: +(await import('node:os')).loadavg()[0].toFixed(1),
    }),
  );
} finally {
  await browser.close();
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
