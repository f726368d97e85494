// A command that opens the store loads that backend's drivers and nothing it does not use: run as
// shipped (bin/stagecraft.mjs → dist/), every module the process resolves recorded. `run` on the
// embedded store loads PGlite but not pg, and neither Prisma's client nor its query compiler (its
// reads and writes are plain SQL), nor do `runs`, `versions` and `export` (the runs list, a skill's reads
// and a run's artifacts are plain SQL on the embedded store); on Postgres `runs` loads the client when
// it needs it; a command on Postgres
// never loads PGlite, and `resume` on Postgres loads neither Prisma's client, its adapter or the
// migration engine's driver utilities (an up-to-date database), nor zod (the API's views).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cpSync } from 'node:fs';
import pg from 'pg';
import { createTestDatabase } from '../lib/store/testing/pg-test-db';
import { ROOT } from './testing/spawn-cli';
import { tracedCli } from './testing/traced-cli';

const PGLITE = /node_modules\/@electric-sql\/pglite\//;
const PG = /node_modules\/(pg|@prisma\/adapter-pg)\//;
const QUERY_COMPILER = /query_compiler/;
// Prisma's client (its runtime) and the adapter that puts it on PGlite
const PRISMA_CLIENT = /node_modules\/(@prisma\/client|pglite-prisma-adapter)\//;

test('`run` on the embedded store loads PGlite, not pg, and not Prisma\'s client or its query compiler, nor do `runs`, `versions` and `export`', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-modules-embedded-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' };
    const summarize = path.join(ROOT, 'examples', 'summarize');
    const r = await tracedCli(['run', summarize, '--input', path.join(summarize, 'input.json'), '--json'], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).status, 'completed');
    assert.ok(r.modules.some((m) => PGLITE.test(m)), 'the embedded store is PGlite');
    assert.deepEqual(r.modules.filter((m) => PG.test(m)), []);
    assert.deepEqual(r.modules.filter((m) => QUERY_COMPILER.test(m)), []);
    assert.deepEqual(r.modules.filter((m) => PRISMA_CLIENT.test(m)), [], "a run's reads and writes are plain SQL");
    // the runs list is plain SQL on the embedded store's line (run-index.ts): ~0.17 s of CPU and ~35 MB less a `stagecraft runs`
    const runs = await tracedCli(['runs', '--json'], env);
    assert.equal(runs.code, 0, runs.err);
    assert.match(runs.out, new RegExp(JSON.parse(r.out).runId));
    assert.deepEqual(runs.modules.filter((m) => QUERY_COMPILER.test(m)), []);
    assert.deepEqual(runs.modules.filter((m) => PRISMA_CLIENT.test(m)), [], 'the runs list is plain SQL');
    // a skill's versions too (skills.ts `lookups`)
    const versions = await tracedCli(['versions', 'summarize', '--json'], env);
    assert.equal(versions.code, 0, versions.err);
    assert.match(versions.out, /"versions"/);
    assert.deepEqual(versions.modules.filter((m) => QUERY_COMPILER.test(m)), []);
    assert.deepEqual(versions.modules.filter((m) => PRISMA_CLIENT.test(m)), [], "a skill's versions are plain SQL");
    // and a run's export (its artifacts: run-reads.ts)
    const exported = await tracedCli(['export', JSON.parse(r.out).runId, '--out', path.join(dir, 'export.json')], env);
    assert.equal(exported.code, 0, exported.err);
    assert.deepEqual(exported.modules.filter((m) => QUERY_COMPILER.test(m)), []);
    assert.deepEqual(exported.modules.filter((m) => PRISMA_CLIENT.test(m)), [], "a run's export is plain SQL");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a command on Postgres loads pg, never PGlite', async () => {
  const database = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-modules-pg-'));
  try {
    const r = await tracedCli(['events', 'run_not_there', '--json'], { ...process.env, DATABASE_URL: database.url, STAGECRAFT_DATA_DIR: path.join(dir, 'data') });
    assert.match(r.out + r.err, /run_not_there/, 'it opened the store and looked');
    assert.ok(r.modules.some((m) => PG.test(m)), 'the Postgres store is pg');
    assert.deepEqual(r.modules.filter((m) => PGLITE.test(m)), []);
    // the runs list is Prisma's there: the client is imported when first needed, and answers
    const runs = await tracedCli(['runs', '--json'], { ...process.env, DATABASE_URL: database.url, STAGECRAFT_DATA_DIR: path.join(dir, 'data') });
    assert.equal(runs.code, 0, runs.err);
    assert.ok(runs.modules.some((m) => /node_modules\/@prisma\/adapter-pg\//.test(m)), 'the adapter is loaded when the client is needed');
    assert.ok(runs.modules.some((m) => /node_modules\/@prisma\/client\//.test(m)), "Prisma's client is loaded when needed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
});

// what a resume (or a worker) needs before its first step is pg, the kernel and the sandbox: each of these costs
// 30–150 ms of CPU to load, most of a resume's start on a loaded machine
const NOT_FOR_A_RESUME = /node_modules\/(@prisma\/(client|adapter-pg|driver-adapter-utils)|zod)\//;

test('`resume` on Postgres loads neither Prisma\'s client, its adapters nor zod', async () => {
  const database = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-modules-resume-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, STAGECRAFT_DATA_DIR: path.join(dir, 'data') };
    const bundle = path.join(dir, 'probe');
    cpSync(path.join(ROOT, 'lib', 'server', 'crash', 'fixture'), bundle, { recursive: true });
    // the run kills itself after its third commit (a crash), leaving it to resume
    const crashed = await tracedCli(['run', bundle, '--json'], { ...env, STAGECRAFT_FAULT: 'after-commit:3' });
    assert.notEqual(crashed.code, 0, 'the run was killed');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const rows = await client.query<{ id: string }>("SELECT id FROM runs WHERE status = 'running'").finally(() => client.end());
    assert.equal(rows.rows.length, 1, 'one interrupted run');
    const r = await tracedCli(['resume', rows.rows[0].id, '--json'], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).status, 'completed');
    assert.ok(r.modules.some((m) => PG.test(m)), 'the Postgres store is pg');
    assert.deepEqual(r.modules.filter((m) => NOT_FOR_A_RESUME.test(m)), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
});
