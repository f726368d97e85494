// bench:store --warm N: N runs of the measured skill before the measure, said in the line; and each
// line splits this process's CPU between its main thread and its other threads, and says the CPU
// of the benchmark database's own backends
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ADMIN_URL, createTestDatabase } from '../lib/store/testing/pg-test-db';

const bench = (...args: string[]) => benchIn(undefined, ...args);
const benchIn = (tmp: string | undefined, ...args: string[]) =>
  spawnSync(process.execPath, ['bench/run-compiled.mjs', 'bench/bench-store.ts', '--mode', 'many', '--steps', '2', '--concurrency', '2', '--kind', 'pure', ...args], {
    encoding: 'utf8',
    timeout: 240_000,
    ...(tmp ? { env: { ...process.env, TMPDIR: tmp } } : {}),
  });

test('--warm N runs the measured skill N times before measuring, and the line says so', async () => {
  const db = await createTestDatabase();
  try {
    // enough measured runs for the main thread to use a clock tick (10 ms) of CPU: the split is read in ticks,
    // and 3 runs of 2 pure steps took 7.7 ms of CPU in all (0 ticks on the main thread, seen in CI)
    const r = bench('--workflows', '60', '--warm', '4', '--db', db.name);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const line = JSON.parse(r.stdout.split('\n').find((l) => l.startsWith('{'))!) as Record<string, number>;
    assert.equal(line.warmRuns, 4);
    assert.equal(line.workflows, 60);
    assert.equal((line as Record<string, unknown>).compiled, true); // run as npm run bench:store runs it
    // the split adds up to the process's CPU (to the clock tick of each thread)
    assert.ok(line.nodeMainCpuMs > 0, JSON.stringify(line));
    assert.ok(Math.abs(line.nodeMainCpuMs + line.nodeOtherThreadsCpuMs - line.nodeCpuMs) <= 60, JSON.stringify(line));
    // this database's backends: a part of every postgres process's CPU (the runs wrote through them)
    assert.equal(typeof line.dbCpuMs, 'number', JSON.stringify(line));
    assert.ok(line.dbCpuMs <= line.pgCpuMs, JSON.stringify(line));
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      // the usual warm-up (one 2-step run per concurrent slot), the 4 of --warm, the 60 measured: all completed
      const runs = await c.query<{ steps: string; n: number }>(`SELECT input::text AS steps, count(*)::int AS n FROM runs WHERE status = 'completed' GROUP BY 1`);
      const total = runs.rows.reduce((s, x) => s + x.n, 0);
      assert.equal(total, 2 + 4 + 60, JSON.stringify(runs.rows));
    } finally {
      await c.end();
    }
  } finally {
    await db.drop();
  }
});

test('--warm is refused below 0, when not a number, and outside the single and many modes', () => {
  for (const args of [['--warm=-1'], ['--warm', 'many'], ['--warm', '2', '--mode', 'floor']]) {
    const r = bench('--workflows', '1', '--db', 'unused', ...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /--warm/);
  }
});

// without --db, the database is named after DB_PREFIX (as bench/compare.sh names its own): two benches
// at once on one server keep apart. It was `stagecraft_bench` whatever DB_PREFIX said.
test('--tiny without --db: the database is DB_PREFIX + stagecraft_bench', async () => {
  const prefix = `${process.env.DB_PREFIX ?? ''}tiny${process.pid}_`;
  const name = `${prefix}stagecraft_bench`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const r = spawnSync(process.execPath, ['bench/run-compiled.mjs', 'bench/bench-store.ts', '--tiny', '--mode', 'single', '--steps', '2', '--kind', 'pure'], {
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, DB_PREFIX: prefix },
    });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    assert.equal(found.rowCount, 1, `no database ${name}`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
});

// each line of bench:compare is a process of its own: each left its folder (bundles, workspace, sandbox probe) in the temp dir
test('a bench:store process removes the folder it made for its bundles and workspace', async () => {
  const db = await createTestDatabase();
  const tmp = mkdtempSync(path.join(tmpdir(), 'sc-bench-tmp-'));
  try {
    const r = benchIn(tmp, '--workflows', '2', '--kind', 'both', '--db', db.name);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(readdirSync(tmp).filter((n) => n.startsWith('sc-bench-')), []);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await db.drop();
  }
});
