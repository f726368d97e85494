/**
 * The cost of a step whose output is near the 16 MB cap (bench/fixtures/big_value): a run of it
 * started in this process (startSkillRun, as `stagecraft run` and the app drive runs) on the
 * embedded store or on Postgres, printed as one JSON line per run:
 *   runMs      the run, start to end;
 *   maxStallMs the longest the event loop was held (perf_hooks monitorEventLoopDelay's max), and
 *   stallMs    the time a 10 ms ticker found late (sum of each tick's lateness): what every other
 *              request of the process waited;
 *   cpuMs      this process's CPU in the run (the sandbox's workers are processes of their own);
 *   commitCpuMs / commitMaxMs  the CPU spent in the store's commits (PGlite runs on this thread),
 *              and the longest commit;
 *   readMs     the longest a small store read (the run's record, issued every 20 ms) waited;
 *   pageMs     after the run: its events read back (what the run page folds).
 * Each process runs it once unwarmed first (not counted). The machine is shared: compare cpuMs and
 * commitCpuMs of interleaved processes, not wall times of different moments. Printed as one JSON
 * line: each run's figures (`each`) and their medians.
 *
 *   npm run bench:big-value [-- --store embedded|postgres] [--runs 1] [--tiny]
 * At the tiny size (`npm test` runs it so) the output is 0.5 MB, from a copy of the fixture.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/store';
import { hostFor } from '../lib/server/host';
import { startSkillRun } from '../lib/server/runs/start-run';
import { createTestDatabase } from '../lib/store/testing/pg-test-db';
import { TINY } from './tiny';
import { COMPILED } from './compiled';

const { values: a } = parseArgs({ options: { store: { type: 'string', default: 'embedded' }, runs: { type: 'string', default: '1' }, tiny: { type: 'boolean' } } });
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const FIXTURE = path.join(ROOT, 'bench', 'fixtures', 'big_value');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-bench-big-'));
// the tiny size: the fixture copied with its output's size set to 0.5 MB (a code step sees no environment of ours)
const BUNDLE = TINY ? tinyCopy() : FIXTURE;
function tinyCopy(): string {
  const dir = path.join(dataDir, 'big_value');
  cpSync(FIXTURE, dir, { recursive: true });
  const steps = path.join(dir, 'steps.mjs');
  const text = readFileSync(steps, 'utf8');
  const tiny = text.replace(/const MB = .*;/, 'const MB = 0.5;');
  if (tiny === text) throw new Error(`bench:big-value --tiny: no "const MB = …;" line in ${steps}`);
  writeFileSync(steps, tiny);
  return dir;
}
const db = a.store === 'postgres' ? await createTestDatabase() : null;
const url = db?.url;
const store = await openStore(url ? { databaseUrl: url } : { dataDir: path.join(dataDir, 'db') });
// the main thread's CPU in the store's commits (PGlite runs on it), summed per run
let commitCpuMs = 0;
let commitMaxMs = 0;
const commit = store.commit.bind(store);
store.commit = async (runId, unit) => {
  const c = process.cpuUsage();
  const t = performance.now();
  try {
    return await commit(runId, unit);
  } finally {
    const d = process.cpuUsage(c);
    commitCpuMs += (d.user + d.system) / 1000;
    commitMaxMs = Math.max(commitMaxMs, performance.now() - t);
  }
};
const env = { ...process.env, DATABASE_URL: url, STAGECRAFT_DATA_DIR: dataDir };
const host = hostFor({ store, skills: store.skills, env, cwd: ROOT });

async function once(warm: boolean) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  let late = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    late += Math.max(0, now - last - 10);
    last = now;
  }, 10);
  let readMax = 0;
  const runId = `big-${Date.now()}-${warm}`;
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const t = performance.now();
      await store.getRun(runId);
      readMax = Math.max(readMax, performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  h.enable();
  commitCpuMs = 0;
  commitMaxMs = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await startSkillRun(host, { bundle: BUNDLE, input: {}, runId });
  const runMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  h.disable();
  clearInterval(ticker);
  reading = false;
  await reader;
  const t1 = performance.now();
  const events = await store.readEvents(r.runId);
  const pageMs = performance.now() - t1;
  return { status: r.status, runMs: Math.round(runMs), cpuMs: Math.round((cpu.user + cpu.system) / 1000), commitCpuMs: Math.round(commitCpuMs), commitMaxMs: Math.round(commitMaxMs), maxStallMs: Math.round(h.max / 1e6), stallMs: Math.round(late), readMs: Math.round(readMax), pageMs: Math.round(pageMs), events: events.length };
}

await once(false); // warm: the sandbox, the store's first statements
const each: Awaited<ReturnType<typeof once>>[] = [];
for (let i = 0; i < Number(a.runs); i++) each.push(await once(true));
const median = (k: 'runMs' | 'cpuMs' | 'commitCpuMs' | 'commitMaxMs' | 'maxStallMs' | 'stallMs' | 'readMs' | 'pageMs') => {
  const v = each.map((r) => r[k]).sort((x, y) => x - y);
  return v[Math.floor(v.length / 2)];
};
const keys = ['runMs', 'cpuMs', 'commitCpuMs', 'commitMaxMs', 'maxStallMs', 'stallMs', 'readMs', 'pageMs'] as const;
const failed = each.filter((r) => r.status !== 'completed').length;
process.stdout.write(JSON.stringify({ bench: 'big-value', compiled: COMPILED, store: a.store, tiny: TINY, runs: each.length, failed, ...Object.fromEntries(keys.map((k) => [k, median(k)])), each }) + '\n');
await store.close();
await db?.drop();
process.exit(failed ? 1 : 0);
