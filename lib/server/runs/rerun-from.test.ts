// A run that failed with no failed step — its finish refused by the phase's contract after the
// retry — is rerun from the phase it stopped in: the run view says so (`rerunFrom`, which the run
// page's `Rerun from here` takes), and it is the point a fork with none named (`{}`) takes.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { memoryHost } from '../testing';
import { startStoredRun } from './start-run';
import { getRun } from './run-summary';
import { forkRun } from './fork-run';

// the skill (its finish must hold `text`), shared with the browser test of its page (e2e/rerun-phase-words.spec.ts)
const skillMd = readFileSync(path.join(process.cwd(), 'e2e', 'fixtures', 'contract', 'skill.md'), 'utf8');
const script = (finish: string) => `turns:\n  - phase: draft\n    finish: ${finish}\n  - phase: draft\n    finish: ${finish}\n`;

test('a run whose finish its contract refused is rerun from its phase, on its page as by the API', async () => {
  const host = memoryHost({ cwd: process.cwd() });
  await host.skills.saveVersion('contract', { 'skill.md': skillMd, 'model.yaml': script('{ wrong: 1 }'), 'good.yaml': script('{ text: ok }') }, { mode: 'create', origin: 'create', description: '' });
  const failed = await startStoredRun(host, { skill: 'contract', input: {}, model: 'scripted:model.yaml' });
  assert.equal(failed.status, 'failed');
  assert.equal((failed.error as { code?: string }).code, 'output_invalid');
  const view = await getRun(host, failed.runId);
  assert.equal(view.report?.failed_step ?? null, null, 'no failed step to offer');
  assert.equal(view.rerunFrom, 'draft');
  const fork = await forkRun(host, failed.runId, { model: 'scripted:good.yaml' });
  assert.equal(fork.forkPoint, view.rerunFrom, 'the page offers the point the server reruns from');
  assert.equal(fork.status, 'completed', JSON.stringify(fork.error));

  const done = await getRun(host, fork.runId);
  assert.equal(done.rerunFrom, null, 'a completed run has nothing to rerun');
});
