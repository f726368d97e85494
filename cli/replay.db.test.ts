// replay, fork, compare, regress, export and import end to end through the
// command as it ships (bin/stagecraft.mjs in a child process), on a throwaway Postgres
// database: a skill whose code steps append to a file in their run's workspace
// (the side-effect counter) and a model behind a local OpenAI-protocol server
// that counts its requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from './testing/spawn-cli';
import { createTestDatabase, type TestDatabase } from '../lib/store/testing/pg-test-db';

let db: TestDatabase;
let server: http.Server;
const modelRequests: unknown[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-replay-cli-'));
const ENV = ['DATABASE_URL', 'STAGECRAFT_DATA_DIR', 'STAGECRAFT_MODEL_BASE_URL'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

before(async () => {
  db = await createTestDatabase();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      modelRequests.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '{"n": 1}' }, finish_reason: 'stop' }], usage: { prompt_tokens: 11, completion_tokens: 3 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.DATABASE_URL = db.url;
  process.env.STAGECRAFT_DATA_DIR = dataDir;
  process.env.STAGECRAFT_MODEL_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(async () => {
  for (const k of ENV) if (saved[k] === undefined) delete process.env[k];
  else process.env[k] = saved[k];
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string; json: any }> {
  const { code, out, err } = await runCli(argv, { stdin: '{}' });
  let json: unknown = null;
  try {
    json = JSON.parse(out);
  } catch {
    json = null;
  }
  return { code, out, err, json };
}

const SKILL = `---
name: counter
description: Three code steps that count what they were given
entry: main
graph:
  main: []
output_schema:
  type: object
  properties:
    n: { type: integer }
  required: [n]
postprocessor:
  output_schema: { type: object, required: [n] }
  steps:
    - { type: node, module: ./steps.mjs, function: one }
    - { type: node, module: ./steps.mjs, function: two }
    - { type: node, module: ./steps.mjs, function: three }
---
You count.

## main
Answer with {"n": 1}.
`;

/** each step appends its name to calls.log in its run's workspace: how often it ran there */
const steps = (broken = false) => `import { appendFileSync } from 'node:fs';
const step = (name) => (value) => {
  appendFileSync('calls.log', name + '\\n');
  ${broken ? "if (name === 'two') throw new Error('two is broken');" : ''}
  return { n: value.n + 1, [name + '_saw']: value.n };
};
export const one = step('one');
export const two = step('two');
export const three = step('three');
`;

function bundle(broken = false): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'sc-counter-')), 'counter');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'skill.md'), SKILL);
  writeFileSync(path.join(dir, 'steps.mjs'), steps(broken));
  return dir;
}

const calls = (runId: string) => {
  const f = path.join(dataDir, 'workspaces', runId, 'calls.log');
  return existsSync(f) ? readFileSync(f, 'utf8').trim().split('\n') : [];
};
const runCount = async () => (await cli('runs', '--json', '--limit', '500')).json.runs.length;

test('fork counts: steps before the point run zero times, the edited value is what the next step sees, the rest runs once', async () => {
  const dir = bundle();
  const run = await cli('run', dir, '--model', 'openai:mock', '--json');
  assert.equal(run.code, 0, run.err);
  const parent = run.json.runId;
  assert.deepEqual(calls(parent), ['one', 'two', 'three']);
  assert.equal(modelRequests.length, 1);

  // rerun from a step: the step and the rest run once, nothing before it, no model call
  const rerun = await cli('fork', parent, '--at', '__post__/1', '--json');
  assert.equal(rerun.code, 0, rerun.err);
  assert.equal(rerun.json.parentRunId, parent);
  assert.equal(rerun.json.forkPoint, '__post__/1');
  assert.deepEqual(calls(rerun.json.runId), ['two', 'three']);
  assert.deepEqual(rerun.json.output, run.json.output);
  assert.equal(modelRequests.length, 1, 'no model call for a recorded turn');

  // an edited output: the step is not run, the next one sees the edit
  const edited = await cli('fork', parent, '--at', '__post__/1', '--set', 'n=100', '--json');
  assert.equal(edited.code, 0, edited.err);
  assert.deepEqual(calls(edited.json.runId), ['three']);
  assert.equal(edited.json.output.three_saw, 100);
  assert.equal(edited.json.output.n, 101);

  // an edited input: the step runs once, with it
  const input = await cli('fork', parent, '--at', '__post__/1/input', '--set', 'n=50', '--json');
  assert.equal(input.code, 0, input.err);
  assert.deepEqual(calls(input.json.runId), ['two', 'three']);
  assert.equal(input.json.output.two_saw, 50);

  // an edited model turn: the finish artifact flows into the postprocessor, the model is not asked
  const turn = await cli('fork', parent, '--at', 'main/r1/model', '--set', 'finish.n=40', '--json');
  assert.equal(turn.code, 0, turn.err);
  assert.deepEqual(calls(turn.json.runId), ['one', 'two', 'three']);
  assert.equal(turn.json.output.one_saw, 40);
  assert.equal(modelRequests.length, 1);

  // the phase start: the model is asked again (once), on the recorded input
  const phase = await cli('fork', parent, '--at', 'main', '--json');
  assert.equal(phase.code, 0, phase.err);
  assert.equal(modelRequests.length, 2);

  // the fork records its parent and its point; the parent lists its forks
  const listed = (await cli('runs', '--json')).json.runs.find((r: { runId: string }) => r.runId === edited.json.runId);
  assert.equal(listed.kind, 'fork');
  assert.equal(listed.parentRunId, parent);
  assert.equal(listed.forkPoint, '__post__/1');
});

test('fork refuses what does not fit before anything runs: exit 2, a clear message, no run', async () => {
  const dir = bundle();
  const parent = (await cli('run', dir, '--model', 'openai:mock', '--json')).json.runId;
  const before = await runCount();
  const cases: [string[], RegExp][] = [
    [['--at', '__post__/1', '--set', '$=3'], /the result of a node step is merged into the current value, so it must be a JSON object, not number/],
    [['--at', '__post__', '--set', 'n="many"'], /the finish artifact does not satisfy its schema: .*n/],
    [['--at', 'main/r1/model', '--set', 'toolCalls=7'], /toolCalls must be an array/],
    // an edited finish is held to the phase's contract as the model's own is (before, the fork ran, and the kernel asked the model again)
    [['--at', 'main/r1/model', '--set', 'finish.n="many"'], /The edited value at main\/r1\/model does not fit: finish does not satisfy the output schema of phase main, the contract the model's own finish is held to: \/n must be integer\. Nothing was run\./],
    [['--at', 'main/r7/model'], /has no step at main\/r7\/model .*Positions of the run: input, main, main\/r1\/model, __post__, __post__\/0/],
    [['--at', '__post__/1', '--set', 'n'], /write PATH=JSON/],
    [['--at', '__post__/1', '--set', 'n=abc'], /is not JSON; a string needs quotes/],
  ];
  for (const [args, message] of cases) {
    const r = await cli('fork', parent, ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
  }
  const completed = await cli('fork', parent);
  assert.equal(completed.code, 2);
  assert.match(completed.err, /Name the fork point .*it completed/);
  assert.equal(await runCount(), before, 'no fork was recorded');
});

test('rerun from the failed step after a fix: it completes, earlier steps and the model are not run again', async () => {
  const dir = bundle(true);
  const failed = await cli('run', dir, '--model', 'openai:mock', '--json');
  assert.equal(failed.code, 1);
  assert.equal(failed.json.status, 'aborted');
  const asked = modelRequests.length;
  writeFileSync(path.join(dir, 'steps.mjs'), steps(false)); // the fix, in the folder the run was made from
  const rerun = await cli('fork', failed.json.runId, '--json');
  assert.equal(rerun.code, 0, rerun.err);
  assert.equal(rerun.json.forkPoint, '__post__/1', 'the failed step');
  assert.equal(rerun.json.status, 'completed');
  assert.deepEqual(calls(rerun.json.runId), ['two', 'three']);
  assert.equal(modelRequests.length, asked);
});

test('replay --check: 0 identical, 1 with the divergence located, 2 on a usage error; compare and regress', async () => {
  const dir = bundle();
  const runId = (await cli('run', dir, '--model', 'openai:mock', '--json')).json.runId;
  const asked = modelRequests.length;
  const same = await cli('replay', runId, '--check');
  assert.equal(same.code, 0, same.out + same.err);
  assert.match(same.out, /: identical — /);
  const sameJson = await cli('replay', runId, '--json');
  assert.equal(sameJson.json.verdict, 'identical');
  assert.deepEqual(calls(sameJson.json.replayRunId), ['one', 'two', 'three'], 'processor steps really ran, in the replay workspace');
  assert.deepEqual(calls(runId), ['one', 'two', 'three'], 'and never in the recorded run\'s');
  assert.equal(modelRequests.length, asked, 'zero model calls');

  writeFileSync(path.join(dir, 'steps.mjs'), steps().replace("export const two = step('two');", "export const two = (v) => ({ ...step('two')(v), n: v.n + 2 });"));
  const changed = await cli('replay', runId, '--check');
  assert.equal(changed.code, 1);
  assert.match(changed.out, /diverged at __post__\/1 — 3 divergences/);
  assert.match(changed.out, /~ \/n: 3 → 4/);
  const j = (await cli('replay', runId, '--json')).json;
  assert.equal(j.verdict, 'diverged');
  assert.deepEqual(j.divergences.map((d: { position: string; change: string }) => `${d.position} ${d.change}`), ['__post__/1 output', '__post__/2 output', '__post__ outcome']);
  assert.deepEqual(j.divergences[0].recorded.value, { n: 3, two_saw: 2 });
  assert.deepEqual(j.divergences[0].replayed.value, { n: 4, two_saw: 2 });
  assert.deepEqual(j.divergences[0].diff, { n: [3, 4] });

  // the replay is a run of its own, of kind replay
  const replays = (await cli('runs', '--json', '--limit', '500')).json.runs.filter((r: { kind: string; parentRunId: string }) => r.kind === 'replay' && r.parentRunId === runId);
  assert.ok(replays.length >= 3);

  assert.equal((await cli('replay', runId, '--version', 'abc', '--skill', dir)).code, 2);
  assert.equal((await cli('replay')).code, 2);
  assert.equal((await cli('replay', 'run_nope', '--check')).code, 2); // not checked (cli/replay-check-exit.test.ts)

  const cmp = await cli('compare', runId, j.replayRunId, '--json');
  assert.equal(cmp.code, 0, cmp.err);
  assert.equal(cmp.json.identical, false);
  assert.equal(cmp.json.firstDivergence.position, '__post__/1');
  assert.equal(cmp.json.a.tokens.input, 11, 'tokens side by side');
  assert.equal(cmp.json.b.tokens.input, 11);
  assert.deepEqual(cmp.json.rows.map((r: { change: string }) => r.change), ['same', 'same', 'output', 'output']);
  const text = await cli('compare', runId, j.replayRunId);
  assert.match(text.out, /first divergence: __post__\/1 \(processor\): output changed/);
  // the replay of A: said, so that its reused model turns read as such; and, the folder changed since, the version each ran
  assert.match(text.out, /\nB is a replay of A: its model turns and tool outcomes are A's, answered from the recording; its stages and processor steps ran again\. B ran version [0-9a-f]{8}; A ran [0-9a-f]{8}\.\nfirst divergence: /);
  assert.match(text.out, /tokens in \/ out\s+11 \/ 3\s+11 \/ 3/);

  // regress: the version the folder now is (recorded by the replay above), over the skill's past runs
  const reg = await cli('regress', 'counter', '--json');
  assert.equal(reg.code, 1);
  assert.ok(reg.json.checked >= 1);
  const mine = reg.json.changed.find((c: { runId: string }) => c.runId === runId);
  assert.deepEqual(mine.diff.n, [4, 5]);
  assert.equal(mine.firstDivergence.position, '__post__/1');
  // the run the broken version aborted in its postprocessor now completes
  assert.ok(reg.json.changed.some((c: { recorded: { status: string }; now: { status: string } }) => c.recorded.status === 'aborted' && c.now.status === 'completed'));
  const unchanged = await cli('regress', 'counter', '--version', sameJson.json.version, '--json');
  assert.equal(unchanged.json.changed.filter((c: { runId: string }) => c.runId === runId).length, 0, 'the version it ran changes nothing for it');
});

test('export, then import into a fresh embedded store: replay --check says identical; tampered files are refused and change nothing', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const dir = bundle();
  const runId = (await cli('run', dir, '--model', 'openai:mock', '--json')).json.runId;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sc-export-')), 'run.json');
  const exported = await cli('export', runId, '--out', file);
  assert.equal(exported.code, 0, exported.err);
  assert.match(exported.out, new RegExp(`run ${runId}: exported to`));
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(doc.format, 'stagecraft.run-export');
  assert.equal(doc.formatVersion, 1);
  assert.equal(doc.skill.files['steps.mjs'], steps());

  // another installation: the embedded store in a new data dir, no DATABASE_URL, no model endpoint
  const root = mkdtempSync(path.join(tmpdir(), 'sc-import-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data') };
  delete env.DATABASE_URL;
  delete env.STAGECRAFT_MODEL_BASE_URL;
  const sc = (...args: string[]) => spawnSync(process.execPath, ['bin/stagecraft.mjs', ...args], { encoding: 'utf8', env });
  const asked = modelRequests.length;
  const check = sc('replay', '--check', file);
  assert.equal(check.status, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /identical/);
  const again = sc('import', file, '--json');
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout).imported, [{ runId, skill: 'counter', version: doc.skill.version, status: 'unchanged' }]);
  const byId = sc('replay', runId, '--check');
  assert.equal(byId.status, 0, byId.stdout + byId.stderr);
  assert.equal(modelRequests.length, asked);

  // imported code without a sandbox: only with --trust
  const off = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'replay', runId, '--check'], { encoding: 'utf8', env: { ...env, STAGECRAFT_SANDBOX: 'off' } });
  assert.equal(off.status, 2); // not checked: --check exits 1 only on a divergence
  assert.match(off.stderr, /runs code of an imported skill version .* pass --trust/);
  const trusted = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'replay', runId, '--check', '--trust'], { encoding: 'utf8', env: { ...env, STAGECRAFT_SANDBOX: 'off' } });
  assert.equal(trusted.status, 0, trusted.stderr);

  const runsBefore = JSON.parse(sc('runs', '--json', '--limit', '500').stdout).runs.length;
  const text = readFileSync(file, 'utf8');
  const tampered: [string, string, RegExp][] = [
    ['a changed byte', text.replace('"one_saw": 1', '"one_saw": 2'), /do(es)? not match (its|their) hash .*changed after export/],
    ['a wrong hash', JSON.stringify({ ...doc, hashes: { ...doc.hashes, events: '0'.repeat(64) } }), /its events do not match their hash \(hashes\.events\)/],
    ['a newer format', JSON.stringify({ ...doc, formatVersion: 2 }), /written by a newer Stagecraft \(export format 2; this one reads format 1\)/],
    ['a cut file', text.slice(0, text.length / 2), /is not JSON \(line \d+, column \d+\)/],
    ['not an export', '{"hello": "world"}', /not a Stagecraft run export/],
  ];
  for (const [i, [what, body, message]] of tampered.entries()) {
    const f = path.join(root, `${what.replace(/ /g, '-')}.json`);
    writeFileSync(f, body);
    for (const cmd of i === 0 ? [['import', f], ['replay', '--check', f]] : [['import', f]]) {
      const r = sc(...cmd);
      assert.equal(r.status, 2, `${what}, ${cmd[0]}: ${r.stderr}`);
      assert.match(r.stderr, message, what);
      assert.match(r.stderr, /Nothing was imported from it/);
    }
  }
  // a different run under the same id is never overwritten
  const other = { ...doc, run: { ...doc.run, output: { n: 99 } } };
  const { partHash, documentHash } = await import('../lib/server/runs/export-run');
  other.hashes = { ...doc.hashes, run: partHash(other.run), events: partHash(other.events.map((e: { type: string; data: object; seq: number }) => (e.type === 'run_completed' ? { ...e, data: { ...e.data, output: { n: 99 } } } : e))) };
  other.events = other.events.map((e: { type: string; data: object }) => (e.type === 'run_completed' ? { ...e, data: { ...e.data, output: { n: 99 } } } : e));
  other.sha256 = documentHash(other);
  const conflict = path.join(root, 'conflict.json');
  writeFileSync(conflict, JSON.stringify(other));
  const refused = sc('import', conflict);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, new RegExp(`Run ${runId} exists here and is not the run in the file .*nothing was imported`));
  assert.equal(JSON.parse(sc('runs', '--json', '--limit', '500').stdout).runs.length, runsBefore, 'nothing was added');
  const show = JSON.parse(sc('events', runId, '--json').stdout).events;
  assert.deepEqual(show.at(-1).data.output, doc.events.at(-1).data.output, 'the run here is as it was');
});
