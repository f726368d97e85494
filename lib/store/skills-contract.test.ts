// The SkillRepo contract on the in-memory repository (the database ones run in
// prisma-store.db.test.ts), and the bundle hash both compute.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../kernel/memory-store';
import { describeSkillRepoContract } from './skills-contract';
import { bundleHash } from './skills';
import { MemorySkillRepo } from './testing/memory-skills';

describeSkillRepoContract('MemorySkillRepo', async () => {
  const store = new MemoryStore();
  return { repo: new MemorySkillRepo(store), store };
});

describe('bundleHash', () => {
  it('names the files and their contents, not their order', () => {
    const h = bundleHash({ 'skill.md': 'a', 'b.py': 'b' });
    assert.equal(h, bundleHash({ 'b.py': 'b', 'skill.md': 'a' }));
    assert.notEqual(h, bundleHash({ 'skill.md': 'a', 'b.py': 'c' }));
    assert.notEqual(h, bundleHash({ 'skill.md': 'a', 'c.py': 'b' }));
    assert.notEqual(h, bundleHash({ 'skill.md': 'a' }));
    assert.match(h, /^[0-9a-f]{64}$/);
  });
});
