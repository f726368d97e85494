// The app's admission: at most STAGECRAFT_MAX_RUNS runs driven at once; the others are recorded
// `queued`, admitted first come first served (`run_admitted`, then `running`), and picked up from
// the store after a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../../kernel/memory-store';
import { EVENT } from '../../kernel/events';
import { memoryHost } from '../testing';
import { admitRecordedRuns, launchAdmittedRun, RunAdmission, runAdmission } from './run-admission';
import { prepareStoredRun, queueStoredRun } from './start-run';
import { abortSkillRun } from './resume-run';
import { defaultMaxRuns, maxRuns } from '../limits';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('RunAdmission: never more than its limit at once, first come first served, nobody jumps the line', async () => {
  const a = new RunAdmission(2);
  let now = 0;
  let most = 0;
  const order: number[] = [];
  const jobs = Array.from({ length: 7 }, (_, i) =>
    a.admit(async () => {
      order.push(i);
      most = Math.max(most, ++now);
      await tick(5);
      now--;
      return i;
    }),
  );
  assert.equal(a.running, 2);
  assert.equal(a.waiting, 5);
  assert.equal(a.tryAcquire(), null, 'the line is not jumped');
  assert.deepEqual(await Promise.all(jobs), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6]);
  assert.equal(most, 2);
  assert.equal(a.peak, 2);
  assert.equal(a.running, 0);
  // a failed run frees its slot too
  await assert.rejects(a.admit(async () => Promise.reject(new Error('boom'))), /boom/);
  assert.equal(a.running, 0);
});

test('STAGECRAFT_MAX_RUNS defaults to twice the CPUs; nonsense is refused with what to give', () => {
  assert.equal(maxRuns({}), defaultMaxRuns());
  assert.equal(maxRuns({ STAGECRAFT_MAX_RUNS: '3' }), 3);
  assert.throws(() => maxRuns({ STAGECRAFT_MAX_RUNS: '0' }), /STAGECRAFT_MAX_RUNS="0": give the most runs the app drives at once as a whole number of at least 1/);
  assert.equal(runAdmission({ STAGECRAFT_MAX_RUNS: '3' }), runAdmission({ STAGECRAFT_MAX_RUNS: '5' }), 'one admission per process');
});

/** a stored skill whose one step takes `ms` */
async function slowSkill(host: ReturnType<typeof memoryHost>, ms: number) {
  await host.skills.saveVersion(
    'slow',
    {
      'skill.md': `---\nname: slow\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: node, module: ./wait.mjs, function: wait }\n---\nGo.\n`,
      'wait.mjs': `export async function wait(v) { await new Promise((r) => setTimeout(r, ${ms})); return { waited: true }; }\n`,
      'model.yaml': 'turns:\n  - finish: {}\n',
    },
    { mode: 'save', origin: 'app', description: '' },
  );
}

test('launchAdmittedRun: past the limit a run is recorded queued, then admitted in turn and completed', async () => {
  const store = new MemoryStore();
  const host = memoryHost({ cwd: mkdtempSync(path.join(tmpdir(), 'sc-admit-')), store });
  await slowSkill(host, 300);
  const admission = new RunAdmission(1);
  const launched: Awaited<ReturnType<typeof launchAdmittedRun>>[] = [];
  for (let i = 0; i < 3; i++) launched.push(await launchAdmittedRun(host, { skill: 'slow', input: { i } }, admission));
  assert.deepEqual(launched.map((l) => l.queued), [false, true, true]);
  const statuses = async () => Promise.all(launched.map(async (l) => (await store.getRun(l.runId))!.status));
  assert.deepEqual(await statuses(), ['running', 'queued', 'queued']);
  const outcomes = await Promise.all(launched.map((l) => l.done));
  assert.deepEqual(outcomes.map((o) => o.status), ['completed', 'completed', 'completed']);
  assert.equal(admission.peak, 1, 'never two at once');
  const types = (await store.readEvents(launched[2].runId)).map((e) => e.type);
  assert.deepEqual(types.slice(0, 3), [EVENT.runStarted, EVENT.runAdmitted, EVENT.phaseStarted]);
  assert.ok(!types.includes(EVENT.runResumed));
  const admitted = (await store.readEvents(launched[2].runId))[1];
  assert.ok(Number(admitted.data.waitedMs) >= 300, 'it waited for the two before it');
});

test('queued runs survive a restart: the next process admits interrupted runs first, then queued ones, oldest first', async () => {
  const store = new MemoryStore();
  const host = memoryHost({ cwd: mkdtempSync(path.join(tmpdir(), 'sc-admit-boot-')), store });
  await slowSkill(host, 50);
  // a process recorded three queued runs and went away
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await queueStoredRun(host, await prepareStoredRun(host, { skill: 'slow', input: { i } }), { skill: 'slow', input: { i } }));
  assert.deepEqual(await store.listResumable(), ids);
  // one of them is aborted before its turn: it is never driven
  await abortSkillRun(host, ids[1], 'not wanted');
  const admission = new RunAdmission(1);
  const heard: string[] = [];
  const { queued, done } = await admitRecordedRuns(host, admission, (r) => heard.push(r.runId));
  assert.equal(queued, 2);
  const results = await done;
  assert.deepEqual(results.map((r) => r.outcome?.status), ['completed', 'completed']);
  assert.deepEqual(heard, [ids[0], ids[2]]);
  assert.equal((await store.getRun(ids[1]))!.status, 'aborted');
  assert.deepEqual(await store.listResumable(), []);
});
