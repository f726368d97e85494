// A run this process drives (holds its claim) is "driven here" while it runs, and no longer once it
// ends; the run's view as the app answers it says so for a running run only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunView } from '../../views';
import { memoryHost } from '../testing';
import { isDrivenHere, withDrivenHere } from './is-driven-here';
import { getRun } from './run-summary';
import { startSkillRun } from './start-run';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-driven-here-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));

test('a run is driven here while this process runs it, not before a claim nor after its end', async () => {
  const host = memoryHost({ cwd: workspace });
  const seen: boolean[] = [];
  const views: RunView[] = [];
  const stop = host.store.onAppend(async (runId) => {
    seen.push(isDrivenHere(host, runId));
    if (!views.length && isDrivenHere(host, runId)) views.push(withDrivenHere(host, await getRun(host, runId)));
  });
  const done = await startSkillRun(host, { bundle: 'summarize', input });
  stop();
  assert.equal(done.status, 'completed');
  assert.ok(seen.length > 2 && seen.slice(0, -1).every(Boolean), `driven here at every append while it ran: ${seen.join(',')}`);
  assert.equal(isDrivenHere(host, done.runId), false, 'ended: its claim is let go');
  assert.equal(views[0]?.status, 'running');
  assert.equal(views[0]?.drivenHere, true, "a running run's view says this process drives it");
  assert.equal('drivenHere' in withDrivenHere(host, await getRun(host, done.runId)), false, 'an ended run is driven by nobody: the field is left out');
  // a claim taken here and not yet let go (a driver between claim and first step)
  const claim = await host.store.claimRun(done.runId);
  assert.ok(claim);
  assert.equal(isDrivenHere(host, done.runId), true);
  await claim.release();
  assert.equal(isDrivenHere(host, done.runId), false);
});
