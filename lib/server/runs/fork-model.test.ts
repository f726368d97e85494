// The model a fork runs with when none is asked for: the parent's script, as this version's copy of
// it — found by its path in the skill (a script in a folder of the skill, not only at its top).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { forkModel } from './fork-run';

const HASH = 'a'.repeat(64);
const chosen = { files: { 'skill.md': '', 'model.yaml': 'turns: []\n', 'scripts/good.yaml': 'turns: []\n' }, copyDir: '/data/bundles/b' };
const copy = (file: string) => `scripted:${path.join('/data/bundles/b', ...file.split('/'))}`;

test("a parent that ran a script in a folder of its skill is forked with that script's copy, not the skill's model.yaml", () => {
  assert.equal(forkModel({ model: `scripted:/data/bundles/${HASH}/scripts/good.yaml` }, chosen, {}), copy('scripts/good.yaml'));
});

test("a parent's script at the skill's top, or named by a path outside any version's copy: by its file name, as before", () => {
  assert.equal(forkModel({ model: `scripted:/data/bundles/${HASH}/model.yaml` }, chosen, {}), copy('model.yaml'));
  assert.equal(forkModel({ model: 'scripted:/home/me/skill/model.yaml' }, chosen, {}), copy('model.yaml'));
  // a script the version does not have: the bundle's default (the app), the parent's own file (the CLI)
  assert.equal(forkModel({ model: 'scripted:/home/me/other.yaml' }, chosen, {}), undefined);
  assert.equal(forkModel({ model: 'scripted:/home/me/other.yaml' }, chosen, { localModelFiles: true }), 'scripted:/home/me/other.yaml');
  assert.equal(forkModel({ model: 'openai:m' }, chosen, {}), 'openai:m');
});
