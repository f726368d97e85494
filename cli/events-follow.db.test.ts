// A CI job that queued a run (`stagecraft run DIR --queue`) had nothing to wait on but a loop over
// `stagecraft runs`. `stagecraft events RUN --follow` prints the log as `events` does, then each event as
// it is committed, until the run ends, and exits as `run` would have for that end. On the embedded
// store, which the command holds while it follows, a run nobody drives is said and the command ends.
// A follower whose reader has gone (`| head -3`) stops.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../lib/store/testing/pg-test-db';
import { BIN, ROOT, jsonLinesOf, runCli, tempCliEnv, type CliResult } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';
import { killedRun } from './testing/killed-run';

const t = tempCliEnv('sc-events-follow-');
let db: TestDatabase;
let pg: NodeJS.ProcessEnv;
before(async () => {
  db = await createTestDatabase();
  pg = { ...t.env, DATABASE_URL: db.url };
});
after(async () => {
  await db?.drop();
  t.cleanup();
});

const napper = (ms: number) => `import { writeFileSync } from 'node:fs';
export async function step() {
  writeFileSync('napping', '');
  await new Promise((r) => setTimeout(r, ${ms}));
  return { napped: true };
}
`;
const nap = writeOneStepSkill(t.dir, 'napper', napper(800));
const longNap = writeOneStepSkill(t.dir, 'long_napper', napper(60000));
const broken = writeOneStepSkill(t.dir, 'broken', 'export function step() { throw new Error("no luck"); }\n');

type Started = { result: Promise<CliResult>; isRunning(): boolean; err(): string; kill(signal: NodeJS.Signals): void };

/** a command run in the background, its output gathered, its end awaited */
function started(argv: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let isRunning = true;
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => {
      isRunning = false;
      resolve({ code: code ?? (signal ? 128 : 1), out, err });
    }),
  );
  return { result, isRunning: () => isRunning, err: () => err, kill: (signal) => child.kill(signal) };
}

/** once `said` is on the command's stderr (it goes on running), or its end: the test then fails on what it said */
async function untilSaid(cmd: Started, said: string): Promise<void> {
  for (let i = 0; i < 300 && cmd.isRunning() && !cmd.err().includes(said); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(cmd.err().includes(said), cmd.err());
  assert.ok(cmd.isRunning(), 'it goes on following');
}

async function queued(bundle: string): Promise<string> {
  const r = await runCli(['run', bundle, '--queue', '--json'], { env: pg });
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out) as { runId: string }).runId;
}

const lastLine = (out: string) => out.trim().split('\n').at(-1)!;

test('on Postgres, --follow waits on queued runs, prints each event as a worker commits it, and exits as run exits for their end', async () => {
  await runCli(['--version'], { env: pg }); // dist/ current first
  const good = await queued(nap);
  const bad = await queued(broken);
  const follows = [started(['events', good, '--follow'], pg), started(['events', bad, '--follow'], pg)];
  // queued, nobody drives them yet: the followers say so and wait (a worker may take them at any time)
  await untilSaid(follows[0], `stagecraft: run ${good} is queued, and no \`stagecraft worker\` was seen in the last minute: it starts when one (or an app that drives its runs) takes it. Still following.`);
  await untilSaid(follows[1], `run ${bad} is queued`);
  const worker = started(['worker', '--concurrency', '2'], pg);
  try {
    const [ok, failed] = await Promise.all(follows.map((f) => f.result));
    // the same lines `events` prints of the ended run, the last its end; the exit code is run's: 0 completed, 1 not
    for (const [runId, r, code, end] of [
      [good, ok, 0, 'run_completed'],
      [bad, failed, 1, 'run_aborted'],
    ] as const) {
      assert.equal(r.code, code, r.err);
      assert.match(lastLine(r.out), new RegExp(`^\\s+\\d+  \\S+  ${end} `));
      assert.match(r.out, /run_admitted/);
      assert.equal(r.out, (await runCli(['events', runId], { env: pg })).out);
      // an ended run: printed whole, at once, the same exit
      const again = await runCli(['events', runId, '--follow'], { env: pg });
      assert.equal(again.code, code, again.err);
      assert.equal(again.out, r.out);
    }
  } finally {
    worker.kill('SIGTERM');
    await worker.result;
  }
  // --follow --json: one event view a line (JSON Lines), each as `events --json` lists it
  const lines = await runCli(['events', good, '--follow', '--json'], { env: pg });
  assert.equal(lines.code, 0, lines.err);
  const whole = JSON.parse((await runCli(['events', good, '--json'], { env: pg })).out) as { events: unknown[] };
  assert.deepEqual(jsonLinesOf(lines.out), whole.events);
});

test('on Postgres, Ctrl-C stops following and leaves the run alone', async () => {
  const runId = await queued(nap);
  const follow = started(['events', runId, '--follow'], pg);
  await untilSaid(follow, `run ${runId} is queued`);
  follow.kill('SIGINT');
  const r = await follow.result;
  assert.equal(r.code, 130, r.err);
  assert.match(r.err, new RegExp(`stopped following run ${runId}; it goes on as it was \\(to abort it: stagecraft abort ${runId}\\)`));
  const listed = JSON.parse((await runCli(['runs', '--json'], { env: pg })).out) as { runs: { runId: string; status: string }[] };
  assert.equal(listed.runs.find((x) => x.runId === runId)?.status, 'queued');
});

/** how long a follower whose reader has gone is given before the test says it did not stop (it would follow forever) */
const GIVE_UP_MS = 60_000;

/** the command with its stdout's reader gone from the start: its end, or null if it was still following at GIVE_UP_MS */
function withStdoutClosed(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; err: string } | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    const giveUp = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, GIVE_UP_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, err });
    });
  });
}

// `stagecraft events RUN --follow | head -3`: once the reader had gone, the command went on following for
// nobody (its lines dropped) until the run ended — forever, for a run no worker takes. It stops at its next
// line, quietly, exit 0 (as node CLIs that handle a closed pipe do: cli/reader-gone.ts), the run left as it was.
test('on Postgres, --follow whose reader has gone stops at once, quietly, exit 0, and leaves the queued run alone', async () => {
  const runId = await queued(nap);
  for (const argv of [['events', runId, '--follow'], ['events', runId, '--follow', '--json']]) {
    const r = await withStdoutClosed(argv, pg);
    assert.ok(r, `${argv.join(' ')}: still following ${GIVE_UP_MS} ms after its reader had gone`);
    assert.doesNotMatch(r.err, /EPIPE|Unhandled 'error'|\n\s+at |stopped following/, r.err);
    assert.equal(r.code, 0, r.err);
  }
  const listed = JSON.parse((await runCli(['runs', '--json'], { env: pg })).out) as { runs: { runId: string; status: string }[] };
  assert.equal(listed.runs.find((x) => x.runId === runId)?.status, 'queued');
});

test('on Postgres, a run left running by a command killed outright is said to be driven by nobody, and followed on to its end', async () => {
  await killedRun(longNap, path.join(t.dir, 'killed-pg'), pg);
  const listed = JSON.parse((await runCli(['runs', '--json', '--status', 'running'], { env: pg })).out) as { runs: { runId: string }[] };
  const left = listed.runs[0].runId;
  const follow = started(['events', left, '--follow'], pg);
  await untilSaid(
    follow,
    `stagecraft: run ${left} is recorded as running, but no process drives it now (none holds its claim): a worker's run is taken up by another worker once its lease ends; else take it up with \`stagecraft resume ${left}\`, or end it with \`stagecraft abort ${left}\`. Still following.`,
  );
  const aborted = await runCli(['abort', left], { env: pg });
  assert.equal(aborted.code, 0, aborted.err);
  const r = await follow.result;
  assert.equal(r.code, 1, r.err);
  assert.match(lastLine(r.out), /^\s+\d+  \S+  run_aborted /);
  assert.equal(r.err.split('no process drives it now').length, 2, 'said once');
});

test('an unknown run id: the error events gives, on either store', async () => {
  for (const env of [pg, t.env]) {
    const events = await runCli(['events', 'run_nosuch'], { env });
    const follow = await runCli(['events', 'run_nosuch', '--follow'], { env });
    assert.equal(follow.code, events.code);
    assert.equal(follow.code, 1);
    // (the first command on a new embedded store also says it creates it)
    assert.equal(lastLine(follow.err), lastLine(events.err));
    assert.match(follow.err, /No run with id run_nosuch/);
  }
});

test('on the embedded store, an ended run is printed whole and the command exits as run did; a run nobody drives is said, exit 1', async () => {
  const ran = await runCli(['run', nap], { env: t.env });
  assert.equal(ran.code, 0, ran.err);
  const runId = /^run (run_\w+): /m.exec(ran.out)![1];
  const r = await runCli(['events', runId, '--follow'], { env: t.env });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, (await runCli(['events', runId], { env: t.env })).out);
  assert.match(r.out, /run_completed/);

  // left running by a command killed outright: this command holds the store, so nothing can drive it
  await killedRun(longNap, path.join(t.dir, 'killed'), t.env);
  const listed = JSON.parse((await runCli(['runs', '--json', '--status', 'running'], { env: t.env })).out) as { runs: { runId: string }[] };
  const left = listed.runs[0].runId;
  const undriven = await runCli(['events', left, '--follow'], { env: t.env });
  assert.equal(undriven.code, 1, undriven.err);
  assert.equal(undriven.out, (await runCli(['events', left], { env: t.env })).out);
  assert.ok(
    undriven.err.includes(
      `run ${left} is recorded as running, but no process drives it: the embedded store is this command's, so whatever ran it stopped. Take it up with \`stagecraft resume ${left}\`, or end it with \`stagecraft abort ${left}\`. Following it stops here (exit 1): nothing can drive it while this command holds the store.`,
    ),
    undriven.err,
  );
});

// `stagecraft runs --status running` listed such a run like any running one: nothing told an operator that
// nobody drives it, or what to do. Now `runs` says it under the list, in the words above (without "Still
// following."), after two looks at its claim; once ended it is not named.
test('on Postgres, runs names a run left running by a command killed outright, with resume and abort', async () => {
  await killedRun(longNap, path.join(t.dir, 'killed-pg-runs'), pg);
  const r = await runCli(['runs', '--status', 'running'], { env: pg });
  assert.equal(r.code, 0, r.err);
  const left = r.out.trim().split(/\s+/)[0];
  assert.match(left, /^run_/);
  assert.ok(
    r.err.includes(
      `run ${left} is recorded as running, but no process drives it now (none holds its claim): a worker's run is taken up by another worker once its lease ends; else take it up with \`stagecraft resume ${left}\`, or end it with \`stagecraft abort ${left}\`.`,
    ),
    r.err,
  );
  assert.doesNotMatch(r.err, /Still following/);
  assert.equal((await runCli(['abort', left], { env: pg })).code, 0);
  assert.doesNotMatch((await runCli(['runs'], { env: pg })).err, /no process drives it/);
});
