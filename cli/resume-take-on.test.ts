// `stagecraft resume RUN` of a run that failed at a step: a resume never takes it on, so the refusal
// ends with the command that does (`stagecraft fork RUN`, from its failed step), as `run` ends with it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-resume-take-on-');
after(cleanup);

test('resume of a run a step aborted: refused (exit 1), then the fork command that reruns it from that step', async () => {
  const bundle = path.join(dir, 'summarize');
  cpSync(path.join(ROOT, 'examples/summarize'), bundle, { recursive: true });
  const py = path.join(bundle, 'sanitize.py');
  writeFileSync(py, readFileSync(py, 'utf8').replace('    count = 0\n', '    count = 0\n    raise KeyError("paragraphz")\n'));
  const run = await runCli(['run', bundle, '--input', path.join(bundle, 'input.json'), '--json'], { env });
  assert.equal(run.code, 1, run.err);
  const { runId } = JSON.parse(run.out) as { runId: string };
  const r = await runCli(['resume', runId], { env });
  assert.equal(r.code, 1, r.err);
  assert.ok(r.err.includes(`stagecraft: Run ${runId} cannot be resumed: it is aborted (an aborted run is never resumed)`), r.err);
  assert.ok(r.err.includes(`next: fix the cause, then \`stagecraft fork ${runId}\` reruns it from __post__/0`), r.err);
  // --json: the error as it is, one object
  const json = await runCli(['resume', runId, '--json'], { env });
  assert.equal(json.code, 1, json.err);
  assert.doesNotMatch(JSON.parse(json.out).error.message, /next:/);
});
