// The API and the runs list showed a run's model as the absolute path of its version's copy under the
// data dir (scripted:/tmp/…/bundles/<hash>/model.yaml): it is shown as the skill names the script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownModel } from './shown-model';

const hash = 'a'.repeat(64);

test("a model script in a version's copy is shown by its path in the skill; other specs as recorded", () => {
  assert.equal(shownModel(`scripted:/tmp/walk2/data/bundles/${hash}/model.yaml`), 'scripted:model.yaml');
  assert.equal(shownModel(`scripted:/srv/.stagecraft/bundles/${hash}/scripts/good.yaml`), 'scripted:scripts/good.yaml');
  assert.equal(shownModel('scripted:/home/me/play.yaml'), 'scripted:/home/me/play.yaml');
  assert.equal(shownModel('openai:gpt-4o-mini'), 'openai:gpt-4o-mini');
  assert.equal(shownModel('scripted:/x/bundles/short/model.yaml'), 'scripted:/x/bundles/short/model.yaml');
});

test("the runs list's item shows the model so, and keeps the rest", async () => {
  const { runListItemView } = await import('../server/runs/list-runs');
  const row = { id: 'run_1', skillName: 's', versionHash: null, status: 'completed', model: `scripted:/d/bundles/${hash}/model.yaml`, kind: 'run', parentRunId: null, forkPoint: null, createdAt: 1, updatedAt: 2, outcome: 'succeeded', errorMessage: null, failedAt: null, needsAttention: false, takenOnBy: null, durationMs: 1, blockedBy: null, inputPreview: '{}', ord: '1' } as const;
  assert.equal(runListItemView(row).model, 'scripted:model.yaml');
});
