// A run of research_brief completes blocked: its path_guard stage denies a tool call. `stagecraft runs`
// said only its outcome, `blocked` — not by what or why. Its line now ends with a BLOCKED column (`by
// stage path_guard: denied call N (…)`, the run report's words, the reason on one line and cut short),
// and --json's row carries `blockedBy`; a run that was not blocked has an empty cell and `blockedBy: null`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-runs-blocked-by-');
after(cleanup);

test('runs: a blocked run says which stage blocked it and why, in text and --json', async () => {
  for (const skill of ['research_brief', 'summarize']) {
    const r = await runCli(['run', `examples/${skill}`, '--input', `examples/${skill}/input.json`], { env });
    assert.equal(r.code, 0, r.err);
  }
  const json = await runCli(['runs', '--json'], { env });
  assert.equal(json.code, 0, json.err);
  const runs = JSON.parse(json.out).runs as { skill: string; outcome: string; blockedBy: { stage: string; call: number; reason: string } | null }[];
  const blocked = runs.find((r) => r.skill === 'research_brief');
  assert.equal(blocked?.outcome, 'blocked');
  assert.equal(blocked?.blockedBy?.stage, 'path_guard');
  assert.match(blocked?.blockedBy?.reason ?? '', /secrets\/keys\.txt/);
  assert.equal(runs.find((r) => r.skill === 'summarize')?.blockedBy, null);

  const r = await runCli(['runs'], { env });
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /^RUN\s+STATUS\s+SKILL\s+CREATED\s+OUTCOME\s+BLOCKED$/m);
  const line = r.out.split('\n').find((l) => l.includes('research_brief')) ?? '';
  const b = blocked?.blockedBy;
  assert.ok(b);
  assert.ok(line.endsWith(`  by stage path_guard: denied call ${b.call} (${b.reason})`), line);
  assert.match(r.out.split('\n').find((l) => l.includes('summarize')) ?? '', /\s(succeeded|blocked|failed)$/);
});
