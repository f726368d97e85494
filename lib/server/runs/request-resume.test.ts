// `POST /api/runs/<id>/resume` of a run that has ended: refused (409), and for one that failed at a
// step, the refusal says how to take it on from there — a fork with no point, the run page's Rerun
// from here — which a resume never does. Before, it said only "start a new run instead."
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RunNotResumableError } from '../../kernel/errors';
import { startSkillRun } from './start-run';
import { requestResume } from './request-resume';
import { exampleWorkspace, memoryHost } from '../testing';

const { workspace, input } = exampleWorkspace('sc-request-resume-', 'summarize');

test('a resume of a run a step aborted names the fork that takes it on from that step; of a completed one, nothing more', async () => {
  const host = memoryHost({ cwd: workspace });
  const ok = await startSkillRun(host, { bundle: 'summarize', input });
  assert.equal(ok.status, 'completed');
  const py = path.join(workspace, 'summarize', 'sanitize.py');
  writeFileSync(py, readFileSync(py, 'utf8').replace('    count = 0\n', '    count = 0\n    raise KeyError("paragraphz")\n'));
  const failed = await startSkillRun(host, { bundle: 'summarize', input });
  assert.equal(failed.status, 'aborted');
  await assert.rejects(requestResume(host, failed.runId), (e: unknown) => {
    assert.ok(e instanceof RunNotResumableError);
    assert.equal(
      e.message,
      `Run ${failed.runId} cannot be resumed: it has already ended (aborted); start a new run instead. Or take it on from __post__/0, where it failed: POST /api/runs/${failed.runId}/fork with {} (the run page's Rerun from here).`,
    );
    return true;
  });
  await assert.rejects(requestResume(host, ok.runId), (e: unknown) => {
    assert.equal((e as Error).message, `Run ${ok.runId} cannot be resumed: it has already ended (completed); start a new run instead.`);
    return true;
  });
});
