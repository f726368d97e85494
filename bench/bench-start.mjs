#!/usr/bin/env node
/**
 * `npm run bench:start`: how soon `npm start` (scripts/start.mjs) on an existing build serves its
 * first page, as one JSON line. `npx next build` must have run.
 *
 * Each repetition runs bare `node -e 0` (the floor, in the same run: the machine is shared), then
 * starts `node scripts/start.mjs` on a free port and times it until `GET /` answers 200, then
 * stops it. The first repetition makes the embedded data dir (`coldMs`: a new user's first start);
 * the others start on that existing data dir (`firstPageMs`, their median; goal ≤ 3 s).
 * REPS (default 3) warm repetitions; `--tiny` or BENCH_TINY=1: 1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TINY = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';
const REPS = TINY ? 1 : Number(process.env.REPS ?? 3);
const GOAL_MS = 3000;

if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
  process.stderr.write('bench:start measures `npm start` on an existing build: run `npx next build` first\n');
  process.exit(2);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-bench-start-'));
const env = { ...process.env, STAGECRAFT_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' };
for (const k of ['DATABASE_URL', 'STAGECRAFT_HOST', 'STAGECRAFT_TOKEN', 'OTEL_EXPORTER_OTLP_ENDPOINT']) delete env[k];

/** ms from `node scripts/start.mjs` to the first 200 of `GET /` */
async function firstPage() {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: { ...env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${out}`);
      if (performance.now() - t0 > 120_000) throw new Error(`no page after 120 s:\n${out}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/`);
        await r.arrayBuffer();
        if (r.status === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // gone
    }
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    // the next start must not meet this one's server still holding the data dir
    for (let i = 0; i < 200 && groupAlive(child.pid); i++) await new Promise((r) => setTimeout(r, 50));
  }
}

/** whether a process of group `pgid` is still running */
function groupAlive(pgid) {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[2]) === pgid) return true;
    } catch {
      // gone
    }
  }
  return false;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  const nodeMs = [];
  const bare = () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    nodeMs.push(performance.now() - t);
  };
  bare();
  const coldMs = await firstPage();
  const warm = [];
  for (let i = 0; i < REPS; i++) {
    bare();
    warm.push(await firstPage());
  }
  const firstPageMs = Math.round(median(warm));
  const node = median(nodeMs);
  console.log(
    JSON.stringify({
      bench: 'start',
      reps: REPS,
      node_ms: Math.round(node * 10) / 10,
      coldMs: Math.round(coldMs),
      firstPageMs,
      firstPageRatio: Math.round((firstPageMs / node) * 10) / 10,
      goals: { first_page_le_3000ms: firstPageMs <= GOAL_MS },
      load1: +os.loadavg()[0].toFixed(2),
    }),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
