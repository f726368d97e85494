// Resuming runs by id or all at once, as the CLI's `resume` and the app's boot do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../../kernel/memory-store';
import { RunNotFoundError } from '../../kernel/errors';
import { startSkillRun } from './start-run';
import { abortSkillRun, resumeAllRuns } from './resume-run';
import { ev, makeRun } from '../../store/testing/fixtures';
import { memoryHost } from '../testing';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-resume-all-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));

test('resumeAllRuns: a listed run finished before its turn (a child its resumed parent completed) counts as completed', async () => {
  const host = memoryHost({ cwd: workspace });
  const done = await startSkillRun(host, { bundle: 'summarize', input });
  assert.equal(done.status, 'completed');
  // its model script is gone: a finished run needs none
  rmSync(path.join(workspace, 'summarize', 'model.yaml'));
  const heard: string[] = [];
  // each run is reported as it ends: the first before the second is even looked up
  const getRun = host.store.getRun.bind(host.store);
  host.store.getRun = async (id) => {
    if (id === 'run_gone') assert.deepEqual(heard, [`1/2 ${done.runId}`], 'the first run was reported before the second started');
    return getRun(id);
  };
  const [r, missing] = await resumeAllRuns(host, [done.runId, 'run_gone'], (x, i, n) => heard.push(`${i + 1}/${n} ${x.runId}`));
  assert.deepEqual(heard, [`1/2 ${done.runId}`, '2/2 run_gone']);
  assert.equal(r.error, undefined, String(r.error));
  assert.deepEqual(r.outcome, { runId: done.runId, status: 'completed', output: done.output, error: null, report: done.report });
  // one that cannot be resumed is reported, and does not stop the others
  assert.ok(missing.error instanceof RunNotFoundError);
});

test('abortSkillRun aborts the run and, first, its running run_skill children; a finished child is left as it is', async () => {
  const store = new MemoryStore();
  const host = memoryHost({ cwd: workspace, store });
  const running = (id: string, parentRunId: string | null = null) =>
    store.createRun(makeRun({ id, parentRunId }), { events: [ev(id, 1)], snapshot: { runId: id, currentPhase: 'draft', seq: 1, data: {} } });
  await running('run_parent');
  await running('run_child', 'run_parent');
  await running('run_grandchild', 'run_child');
  await running('run_other');
  // (the first test removed the workspace copy's model script)
  const done = await startSkillRun(host, { bundle: 'summarize', input, parentRunId: 'run_parent', model: `scripted:${path.resolve('examples/summarize/model.yaml')}` });
  const { outcome, children } = await abortSkillRun(host, 'run_parent', 'not needed');
  assert.equal(outcome.status, 'aborted');
  assert.deepEqual(children, ['run_grandchild', 'run_child']);
  for (const id of ['run_parent', 'run_child', 'run_grandchild']) assert.equal((await store.getRun(id))?.status, 'aborted', id);
  assert.match(String((await store.getRun('run_child'))?.error?.message), /its parent run run_parent was aborted/);
  assert.equal((await store.getRun('run_other'))?.status, 'running', 'an unrelated run is untouched');
  assert.equal((await store.getRun(done.runId))?.status, 'completed');
  assert.deepEqual(await store.listResumable(), ['run_other']);
});
