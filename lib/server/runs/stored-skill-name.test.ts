// A stored skill whose skill.md says another `name:` (a folder pushed with --name, a skill.md pasted
// from another skill: the validator warns name_mismatch): its runs are the stored skill's — listed
// under it, and replayed, forked and rerun against its versions, never the latest of the skill its
// frontmatter names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readBundleDir } from '../skills/bundle-dir';
import { pushSkill } from '../skills/push-skill';
import { memoryHost } from '../testing';
import { startStoredRun } from './start-run';
import { replayRun } from './replay-run';
import { forkRun } from './fork-run';

const example = path.resolve('examples/summarize');
const input = JSON.parse(readFileSync(path.join(example, 'input.json'), 'utf8'));

test("a run of a skill whose skill.md names another is recorded, replayed and forked as the stored skill", async () => {
  const host = memoryHost({ cwd: process.cwd() });
  // the skill its frontmatter names, with a newer version whose sanitize step fails
  const { files } = readBundleDir(example);
  await host.skills.saveVersion('summarize', files, { mode: 'create', origin: 'create', description: '' });
  await host.skills.saveVersion('summarize', { ...files, 'sanitize.py': 'def main(x):\n    raise ValueError("not this skill")\n' }, { mode: 'save', origin: 'app', description: '' });
  const pushed = await pushSkill(host, example, { as: 'my_summary' });
  assert.equal(pushed.validation.diagnostics.find((d) => d.rule === 'name_mismatch')?.severity, 'warning');

  const run = await startStoredRun(host, { skill: 'my_summary', input });
  assert.equal(run.status, 'completed', JSON.stringify(run.error));
  assert.equal((await host.store.getRun(run.runId))?.skillName, 'my_summary');
  assert.deepEqual((await host.store.listRuns({ skillName: 'my_summary' })).map((r) => r.id), [run.runId]);

  const replay = await replayRun(host, run.runId);
  assert.equal(replay.skill, 'my_summary');
  assert.equal(replay.version, pushed.version.hash);
  assert.equal(replay.verdict, 'identical', JSON.stringify(replay.divergences));

  const fork = await forkRun(host, run.runId, { at: '__post__/0' });
  assert.equal(fork.status, 'completed', JSON.stringify(fork.error));
  assert.equal(fork.version, pushed.version.hash);
  assert.equal((await host.store.getRun(fork.runId))?.skillName, 'my_summary');
});
