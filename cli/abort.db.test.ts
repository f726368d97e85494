// `stagecraft abort` on a run another process drives: a `stagecraft run` whose python step sleeps
// 60 s, on a throwaway Postgres database. The abort is recorded by one process and honoured by
// the other: its step is cut short (its worker killed), the run ends aborted on request within
// seconds, and nothing runs after it.
import { slowPythonBundle } from '../lib/queue/testing/slow-bundle';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, ROOT, runCli } from './testing/spawn-cli';
import { usePgTestStore } from './testing/pg-store';

const pg = usePgTestStore();

const slowBundle = () => slowPythonBundle('slow_python', { stepAfter: true });

async function until<T>(what: string, f: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('abort from another process: the run driven by `stagecraft run` ends aborted within seconds, its 60 s python step cut short', async () => {
  const dir = slowBundle();
  const child = spawn(process.execPath, [BIN, 'run', dir, '--json'], { cwd: ROOT, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end('{}');
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? 1)));
  // the slow step is in flight once the quick one before it is committed (it is effectful)
  const run = await until('the run', async () => (await pg.store().listRuns({ skillName: 'slow_python' }))[0]);
  await until('the first step', async () => (await pg.store().readEvents(run.id)).some((e) => e.type === 'step_completed' && e.data.position === '__post__/0'));
  await new Promise((r) => setTimeout(r, 700));

  const started = Date.now();
  const aborted = await runCli(['abort', run.id, '--reason', 'taking too long', '--json']);
  assert.equal(aborted.code, 0, aborted.err);
  const body = JSON.parse(aborted.out);
  assert.equal(body.status, 'aborted', 'the abort landed while the command waited');
  assert.match(body.report.summary, /^Aborted on request by cli( \(user .+\))?: taking too long$/);

  const code = await exited;
  const took = Date.now() - started;
  assert.ok(took < 20_000, `the run ended ${took} ms after the request, not after its 60 s step`);
  assert.equal(code, 1, `an aborted run exits 1 (${err})`);
  const summary = JSON.parse(out);
  assert.deepEqual([summary.status, summary.error.code, summary.error.requestedBy, summary.error.via], ['aborted', 'workflow_aborted', 'user', 'cli']);

  const log = await pg.store().readEvents(run.id);
  assert.equal(log.at(-1)?.type, 'run_aborted');
  assert.deepEqual(log.map((e) => e.seq), log.map((_, i) => i + 1), 'gap-free');
  const steps = log.filter((e) => e.type === 'step_completed' && String(e.data.position).startsWith('__post__'));
  assert.deepEqual(steps.map((e) => e.data.position), ['__post__/0'], 'the step cut short recorded nothing, and none ran after it');
  assert.equal((await pg.store().getRun(run.id))?.status, 'aborted');
  assert.equal(await pg.store().readSnapshot(run.id), null);
  assert.equal((await pg.store().readAbortRequest(run.id))?.via, 'cli');
  assert.deepEqual((await pg.store().listResumable()).filter((id) => id === run.id), [], 'never resumed');
});

test('`stagecraft run` of a run aborted on request: its outcome line says so, in the app’s words, and that it needs no attention', async () => {
  const dir = slowBundle();
  const child = spawn(process.execPath, [BIN, 'run', dir], { cwd: ROOT, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end('{}');
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.resume();
  const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? 1)));
  const known = new Set((await pg.store().listRuns({ skillName: 'slow_python' })).map((r) => r.id));
  const run = await until('the run', async () => (await pg.store().listRuns({ skillName: 'slow_python' })).find((r) => !known.has(r.id) && r.status === 'running'));
  await until('the first step', async () => (await pg.store().readEvents(run.id)).some((e) => e.type === 'step_completed' && e.data.position === '__post__/0'));
  const aborted = await runCli(['abort', run.id, '--reason', 'not needed']);
  assert.equal(aborted.code, 0, aborted.err);
  assert.equal(await exited, 1, 'an aborted run exits 1');
  const line = out.split('\n').find((l) => l.startsWith('outcome:'));
  assert.match(String(line), /^outcome: aborted on request by cli( \(user .+\))?: not needed \(does not need attention\)$/, out);
  assert.ok(!out.includes('blocked'), out);
  // the 60 s python step in flight is named, by both commands, with how long it had run
  assert.match(out, /^cut short: step __post__\/1 had run \d+(\.\d)? (ms|s) \(nothing of it is recorded\)$/m, out);
  assert.match(aborted.out, /^run \S+: aborted; it will not be resumed\ncut short: step __post__\/1 had run /m, aborted.out);
});
