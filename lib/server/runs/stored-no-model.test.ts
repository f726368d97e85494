// A stored skill with no model script, run with no endpoint configured: refused before anything is
// recorded, the error naming the skill as its caller named it — not its version's copy under the
// data dir (`<data dir>/bundles/<hash>`), a folder the caller never saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryHost } from '../testing';
import { prepareStoredRun } from './start-run';

test("a stored skill without model.yaml and no endpoint: the error names the skill, not its copy's folder", async () => {
  const host = memoryHost({ cwd: process.cwd(), env: {} });
  await host.skills.saveVersion(
    'quiet',
    { 'skill.md': '---\nname: quiet\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\n---\nGo.\n' },
    { mode: 'save', origin: 'app', description: '' },
  );
  await assert.rejects(prepareStoredRun(host, { skill: 'quiet', input: {} }), (e: Error) => {
    assert.match(e.message, /^No model: the bundle of skill quiet has no model\.yaml script and STAGECRAFT_MODEL_BASE_URL is not set\./);
    assert.doesNotMatch(e.message, /bundles[\\/]/);
    return true;
  });
  assert.equal((await host.store.listRuns({})).length, 0, "no run recorded");
});
