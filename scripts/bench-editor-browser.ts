// npm run bench:editor -- --browser — the editor in Chromium, typing into the 100-phase, 50-step
// skill and, in the same run, into a small one (5 phases, 6 steps) as its yardstick: how long from
// a keystroke to the page having redrawn what it changes (findings, the diagram), and how long the
// main thread is blocked meanwhile. One JSON line.
//
// Needs the production build (`npm run build`) and Debian's Chromium (CHROMIUM_PATH). It starts the
// app on a fresh embedded store, saves both skills, opens each one's studio and types KEYSTROKES
// single keys as a typist does, in one place at a time: half at the end of the description
// (nothing on the diagram changes), half in a postprocessor step's `into:` (one card's chip
// changes); moving the cursor between the two is not timed. For each key: t0 is its keydown; the
// studio marks `stagecraft:analysis-drawn` when the analysis of the new text is applied (dated, when
// applied in an animation frame's callback, by that frame: `detail.frame`); t1 is the
// last animation frame before the first quiet one (a frame within QUIET_FRAME_MS of the one before)
// after that mark: the frame that shows the result, once nothing heavy is left to run. Long tasks
// (the browser's own PerformanceObserver) are counted over the typing.
// Target (issue "The editor keeps up with typing"): p95 ≤ 50 ms, and no long task over 50 ms, on
// the large skill. `ratioToSmall` is the large skill's median over the small one's, from this run.
//
// The floor, in the same run: the large skill.md typed the same way into bare Monaco (its minified
// build, the studio's options) and into a plain <textarea> (bench-editor-floor.ts), where a key's
// result is its letter drawn: `floor`, and `p95OverMonacoMs` (the studio's p95 over Monaco's own).
//
// --tiny (or BENCH_TINY=1): 4 keys on each skill, the large one at 20 phases — what `npm test` runs.
// BENCH_KEYSTROKES=n: keys per skill (default 60). BENCH_PORT=n: the app's port (the floor's is n+1).
// BENCH_PROFILE=file.cpuprofile: the main thread's CPU profile over the large skill's description
// keys (BENCH_PROFILE_SEGMENT=card: its card keys; Chrome DevTools opens it). BENCH_TRACE=file.json:
// a Chrome trace (devtools.timeline) over the same keys — style, layout, paint and scripts per task.
// Either also records bare Monaco's same keys, in the same file name with `.floor` before its extension.
import { writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startApp, type AppServer } from '../lib/server/http/testing/app-server';
import { benchFiles, LARGE, SMALL, skillText, type SkillSize } from './bench-editor-skill';
import { startFloor, type FloorServer } from './bench-editor-floor';
import { COMPILED } from '../bench/compiled';

const TINY = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';
const KEYSTROKES = TINY ? 4 : Number(process.env.BENCH_KEYSTROKES ?? 60);
const WARMUP = TINY ? 2 : 6;
const TARGET_MS = 50;
const LONG_TASK_MS = 50;
const QUIET_FRAME_MS = 20;
const PROFILE = process.env.BENCH_PROFILE;
const TRACE = process.env.BENCH_TRACE;
/** the segment BENCH_PROFILE and BENCH_TRACE cover: `description` (default) or `card` */
const PROFILED = process.env.BENCH_PROFILE_SEGMENT ?? 'description';
const VIEWPORT = { width: 1440, height: 900 };
const LARGE_SIZE: SkillSize = TINY ? { phases: 20, steps: 10 } : LARGE;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? 0;
const round = (x: number) => Math.round(x * 10) / 10;

type Probe = { t0: number; marks: number; markTimes: number[]; frames: number[]; longTasks: number[] };
type Figures = {
  keystrokeToRedrawMs: { median: number; p95: number; max: number };
  /** a keystroke that changes no card (the description), and one that changes one card (a step's `into:`) */
  bySegment: Record<string, { median: number; p95: number }>;
  longTasks: { count: number; over50ms: number; maxMs: number };
};
type Typed = Figures & {
  phases: number;
  steps: number;
  /** the page's web workers (Monaco's, and the studio's analysis) */
  workers: number;
};
/** where the typing goes: the two lines of skill.md, and how to put the cursor at the end of one */
type Target = { descriptionLine: number; intoLine: number; moveTo(line: number): Promise<void> };
type Recording = { browser: Browser; profile?: string; trace?: string };

/** the lines of skill.md the keys are typed at the end of */
function targetLines(text: string): Pick<Target, 'descriptionLine' | 'intoLine'> {
  const lines = text.split('\n');
  return { descriptionLine: lines.findIndex((l) => l.startsWith('description:')) + 1, intoLine: lines.findIndex((l) => l.trim() === 'into: out1') + 1 };
}

/** puts the cursor at the end of a line of the page's (first) Monaco editor, and focuses it */
const monacoMoveTo = (page: Page) => (line: number) =>
  page.evaluate((ln) => {
    type Pos = { lineNumber: number; column: number };
    type Ed = { getModel(): { getLineMaxColumn(l: number): number }; setPosition(p: Pos): void; revealPositionInCenterIfOutsideViewport(p: Pos): void; focus(): void };
    const ed = (window as unknown as { monaco: { editor: { getEditors(): Ed[] } } }).monaco.editor.getEditors()[0];
    const at = { lineNumber: ln, column: ed.getModel().getLineMaxColumn(ln) };
    ed.setPosition(at);
    // scrolled into view here, in the untimed move: else the first key scrolls the editor, and its
    // whole repaint (50-67 ms of raster here, Monaco alone the same) is timed as that key's
    ed.revealPositionInCenterIfOutsideViewport(at);
    ed.focus();
  }, line);

/**
 * Counts the marks of a drawn result (and when each was made), the long tasks, and every animation
 * frame's time, from here on; t0 is each key's keydown. The frames are logged all along, not from
 * when a key's wait starts: that starts after `keyboard.press` returns (6-21 ms after the key here),
 * and a frame that had begun by then was missed and the next one timed (a third of the keys, each
 * 11-18 ms late, read from Chrome traces).
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe: Probe = { t0: 0, marks: 0, markTimes: [], frames: [], longTasks: [] };
    (window as unknown as { probe: Probe }).probe = probe;
    document.addEventListener('keydown', (e) => (probe.t0 = e.timeStamp), true);
    const frame = (ts: number) => {
      probe.frames.push(ts);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name !== 'stagecraft:analysis-drawn') continue;
        probe.marks++;
        // a result applied in an animation frame's callback is drawn by that frame: the mark names it (use-analysis.ts)
        probe.markTimes.push((e as PerformanceMark).detail?.frame ?? e.startTime);
      }
    }).observe({ type: 'mark' });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

/** Types the keys (warm-up, description, card) and times each from its keydown to the frame that shows its result. */
async function typeKeys(page: Page, target: Target, rec?: Recording): Promise<Figures> {
  await installProbe(page);
  const samples: number[] = [];
  const longTasks: number[] = [];
  const takeLongTasks = () =>
    page.evaluate(() => {
      const probe = (window as unknown as { probe: Probe }).probe;
      const taken = probe.longTasks;
      probe.longTasks = [];
      return taken;
    });
  const segments = [
    { name: 'warmup', line: target.descriptionLine, keys: WARMUP, timed: false },
    { name: 'description', line: target.descriptionLine, keys: Math.ceil(KEYSTROKES / 2), timed: true },
    { name: 'card', line: target.intoLine, keys: Math.floor(KEYSTROKES / 2), timed: true },
  ];
  const bySegment: Record<string, { median: number; p95: number }> = {};
  let typed = 0;
  const cdp = rec?.profile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  }
  for (const seg of segments) {
    await target.moveTo(seg.line);
    await page.waitForTimeout(800);
    await takeLongTasks(); // the move is not timed
    const recorded = seg.name === PROFILED;
    if (cdp && recorded) await cdp.send('Profiler.start');
    if (rec?.trace && recorded) await rec.browser.startTracing(page, { path: rec.trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
    for (let k = 0; k < seg.keys; k++) {
      const before = await page.evaluate(() => (window as unknown as { probe: Probe }).probe.marks);
      await page.keyboard.press('abcdefghijklmnopqrstuvwxyz'[typed++ % 26]);
      const ms = await page.evaluate(
        ({ marksBefore, quiet }) =>
          new Promise<number>((resolve, reject) => {
            const probe = (window as unknown as { probe: Probe }).probe;
            const deadline = performance.now() + 10_000;
            const look = () => {
              if (probe.marks > marksBefore) {
                // the first frame begun after the key's result was applied draws it; from there, the
                // first quiet frame (within `quiet` of the one before): the frame before it showed the result
                const f = probe.frames;
                const drawnBy = f.findIndex((ts) => ts >= probe.markTimes[marksBefore]);
                if (drawnBy >= 0) for (let j = drawnBy + 1; j < f.length; j++) if (f[j] - f[j - 1] < quiet) return resolve(f[j - 1] - probe.t0);
              }
              if (performance.now() > deadline) return reject(new Error('the result of a keystroke was never drawn'));
              requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
          }),
        { marksBefore: before, quiet: QUIET_FRAME_MS },
      );
      // a typist's pace: the next key comes after this one is drawn
      await page.waitForTimeout(60);
      if (seg.timed) samples.push(ms);
    }
    if (cdp && recorded) {
      const { profile: p } = await cdp.send('Profiler.stop');
      writeFileSync(rec!.profile!, JSON.stringify(p));
    }
    if (rec?.trace && recorded) await rec.browser.stopTracing();
    const tasks = await takeLongTasks();
    if (seg.timed) {
      longTasks.push(...tasks);
      const mine = samples.slice(-seg.keys);
      bySegment[seg.name] = { median: round(median(mine)), p95: round(p95(mine)) };
    }
  }
  return {
    keystrokeToRedrawMs: { median: round(median(samples)), p95: round(p95(samples)), max: round(Math.max(...samples)) },
    bySegment,
    longTasks: { count: longTasks.length, over50ms: longTasks.filter((d) => d > LONG_TASK_MS).length, maxMs: round(Math.max(0, ...longTasks)) },
  };
}

/** Saves the skill, opens its studio and types into it. */
async function typeInto(app: AppServer, browser: Browser, name: string, size: SkillSize, rec?: Recording): Promise<Typed> {
  const post = (p: string, data: unknown) => fetch(`${app.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
  if (!(await post('/api/skills', { name })).ok) throw new Error(`could not create the skill ${name}`);
  const files = benchFiles(skillText(size, name));
  if (!(await post(`/api/skills/${name}/versions`, { files })).ok) throw new Error(`could not save the skill ${name}`);
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    // tsx names the functions it compiles with a helper of its own; the ones sent into the page need it there too
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto(`${app.url}/skills/${name}`);
    await page.getByRole('group', { name: /^phase p000/ }).first().waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForFunction(() => Boolean((window as unknown as { monaco?: unknown }).monaco), undefined, { timeout: 60_000 });
    const figures = await typeKeys(page, { ...targetLines(files['skill.md']), moveTo: monacoMoveTo(page) }, rec);
    return { phases: size.phases, steps: size.steps, ...figures, workers: page.workers().length };
  } finally {
    await page.close();
  }
}

/** The floor: the large skill.md typed into a bare page (`monaco` or `textarea`), the same keys timed the same way. */
async function typeIntoFloor(floor: FloorServer, browser: Browser, kind: 'monaco' | 'textarea', text: string, rec?: Recording): Promise<Figures> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto(`${floor.url}/${kind}.html`);
    await page.waitForFunction(() => (window as unknown as { floorReady?: boolean }).floorReady === true, undefined, { timeout: 60_000 });
    const moveTo =
      kind === 'monaco'
        ? monacoMoveTo(page)
        : (line: number) =>
            page.evaluate((ln) => {
              const ta = document.getElementById('ed') as HTMLTextAreaElement;
              const lines = ta.value.split('\n');
              const end = lines.slice(0, ln).join('\n').length;
              ta.focus();
              ta.setSelectionRange(end, end);
            }, line);
    return await typeKeys(page, { ...targetLines(text), moveTo }, rec);
  } finally {
    await page.close();
  }
}

export async function main(): Promise<void> {
  // BENCH_PORT: the app's port (the floor's pages are served on the next one); default: free ones
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
  const app = await startApp({ port });
  const largeText = skillText(LARGE_SIZE, 'big_editor_bench');
  const floor = await startFloor(largeText, port ? port + 1 : 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
  try {
    // the small one first: the large one's figures are the goal, and come from a warm browser and server
    const small = await typeInto(app, browser, 'small_editor_bench', SMALL);
    const large = await typeInto(app, browser, 'big_editor_bench', LARGE_SIZE, { browser, profile: PROFILE, trace: TRACE });
    // traced or profiled too (the file's name with `.floor` before its extension): the studio's keys beside Monaco's own
    const floorFile = (f?: string) => f?.replace(/(\.[^./]+)?$/, '.floor$1');
    const monaco = await typeIntoFloor(floor, browser, 'monaco', largeText, { browser, profile: floorFile(PROFILE), trace: floorFile(TRACE) });
    const textarea = await typeIntoFloor(floor, browser, 'textarea', largeText);
    const result = {
      bench: 'editor-browser',
      tiny: TINY,
      compiled: COMPILED,
      keystrokes: KEYSTROKES,
      ...large,
      small,
      ratioToSmall: small.keystrokeToRedrawMs.median ? Math.round((large.keystrokeToRedrawMs.median / small.keystrokeToRedrawMs.median) * 100) / 100 : null,
      // the same keys into the same text on bare pages: Monaco alone (the studio's options), a plain textarea
      floor: { monaco, textarea },
      /** the large skill's p95 over bare Monaco's: what the studio adds to the tail */
      p95OverMonacoMs: round(large.keystrokeToRedrawMs.p95 - monaco.keystrokeToRedrawMs.p95),
      targetMs: TARGET_MS,
      ok: large.keystrokeToRedrawMs.p95 <= TARGET_MS && large.longTasks.over50ms === 0,
    };
    console.log(JSON.stringify(result));
  } finally {
    await browser.close();
    await floor.close();
    await app.stop();
  }
}
