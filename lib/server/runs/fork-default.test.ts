// A fork with no point named takes the run's `rerunFrom` — the point its page offers — and no other:
// a run aborted on request failed nowhere, so its page offers no rerun point, and `stagecraft fork
// RUN` (or the API's `{}`) asks for the point (`--at POSITION`, as the spec's usage has it) instead
// of quietly taking the phase the run was stopped in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../../kernel/memory-store';
import { memoryHost, writeSleeperBundle } from '../testing';
import { forkRun, launchFork } from './fork-run';
import { abortSkillRun } from './resume-run';
import { getRun } from './run-summary';
import { startSkillRun } from './start-run';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-fork-default-'));
writeSleeperBundle(workspace);

test('a run aborted on request has no rerun point, and a fork of it with none named asks for one', async () => {
  const store = new MemoryStore();
  const host = memoryHost({ cwd: workspace, store });
  const ended = startSkillRun(host, { bundle: 'sleeper', input: {} });
  let run = null;
  while (!(run = (await store.listRuns({ skillName: 'sleeper' }))[0])) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500)); // its code step is in flight
  await abortSkillRun(host, run.id, 'not needed');
  assert.equal((await ended).status, 'aborted');

  const view = await getRun(host, run.id);
  assert.equal(view.rerunFrom, null, 'its page offers no rerun point');
  const asks = (flag: RegExp) => (e: Error & { code?: string }) => e.code === 'usage' && flag.test(e.message) && /aborted on request/.test(e.message);
  await assert.rejects(forkRun(host, run.id, {}), asks(/--at POSITION/), 'the CLI asks for --at');
  await assert.rejects(launchFork(host, run.id, {}), asks(/"at": POSITION/), 'the API asks for `at`');
  assert.equal((await store.listRuns({ skillName: 'sleeper' })).length, 1, 'no fork was started');
});
