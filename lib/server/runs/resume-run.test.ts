// Resuming runs by id or all at once, as the CLI's `resume` and the app's boot do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../../kernel/memory-store';
import { RunNotFoundError } from '../../kernel/errors';
import { startSkillRun } from './start-run';
import { resumeAllRuns } from './resume-run';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-resume-all-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));

test('resumeAllRuns: a listed run finished before its turn (a child its resumed parent completed) counts as completed', async () => {
  const host = { store: new MemoryStore(), env: {}, cwd: workspace };
  const done = await startSkillRun(host, { bundle: 'summarize', input });
  assert.equal(done.status, 'completed');
  // its model script is gone: a finished run needs none
  rmSync(path.join(workspace, 'summarize', 'model.yaml'));
  const heard: string[] = [];
  const [r, missing] = await resumeAllRuns(host, [done.runId, 'run_gone'], (x, i, n) => heard.push(`${i + 1}/${n} ${x.runId}`));
  assert.deepEqual(heard, [`1/2 ${done.runId}`, '2/2 run_gone'], 'each run is reported as it ends');
  assert.equal(r.error, undefined, String(r.error));
  assert.deepEqual(r.outcome, { runId: done.runId, status: 'completed', output: done.output, error: null, report: done.report });
  // one that cannot be resumed is reported, and does not stop the others
  assert.ok(missing.error instanceof RunNotFoundError);
});
