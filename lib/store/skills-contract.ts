/**
 * The SkillRepo contract: one suite that PrismaSkillRepo (PGlite and Postgres,
 * prisma-store.db.test.ts) and MemorySkillRepo (skills-contract.test.ts) both
 * pass, so tests on the in-memory host mean what the app does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../kernel/json';
import type { RunRecord, StorePort } from '../kernel/ports';
import { bundleHash, type SkillRepo } from './skills';
import { ev, makeRun } from './testing/fixtures';

type Opened = { repo: SkillRepo; store: StorePort };

let n = 0;
const fresh = (what: string) => `${what}_${Date.now().toString(36)}_${++n}`;
const bundle = (text: string, extra: Record<string, string> = {}) => ({ 'skill.md': text, ...extra });
const save = (repo: SkillRepo, name: string, files: Record<string, string>, mode: 'save' | 'record' | 'create' = 'save') =>
  repo.saveVersion(name, files, { mode, origin: mode === 'record' ? 'run' : 'app', description: `about ${name}` });

export function describeSkillRepoContract(label: string, open: () => Promise<Opened>): void {
  describe(`SkillRepo contract: ${label}`, () => {
    it('the same files give the same version, and the latest save wins (A, B, A → A)', async () => {
      const { repo } = await open();
      const name = fresh('latest');
      const a = await save(repo, name, bundle('A', { 'x.py': 'x' }));
      const b = await save(repo, name, bundle('B'));
      const a2 = await save(repo, name, { 'x.py': 'x', 'skill.md': 'A' });
      assert.equal(a.isNew, true);
      assert.equal(b.isNew, true);
      assert.deepEqual(a2, { ...a, isNew: false });
      assert.equal(a.hash, bundleHash({ 'skill.md': 'A', 'x.py': 'x' }));
      const skill = await repo.getSkill(name);
      assert.equal(skill?.versionCount, 2);
      assert.equal(skill?.latest?.hash, a.hash);
      assert.equal(skill?.latest?.description, `about ${name}`);
      assert.deepEqual((await repo.listVersions(name))?.map((v) => v.hash), [a.hash, b.hash]);
      assert.deepEqual((await repo.getVersion(name)).files, { 'skill.md': 'A', 'x.py': 'x' });
    });

    it('a version recorded with an earlier savedAt (an imported run\'s) takes its place in history, not the latest', async () => {
      const { repo } = await open();
      const name = fresh('imported');
      const now = await save(repo, name, bundle('now'));
      const old = await repo.saveVersion(name, bundle('old'), { mode: 'record', origin: 'import', description: '', savedAt: Date.parse('2024-01-02T03:04:05.678Z') });
      assert.equal(old.isNew, true);
      assert.equal((await repo.getVersion(name)).hash, now.hash, 'the latest is still the latest');
      const listed = await repo.listVersions(name);
      assert.deepEqual(listed?.map((v) => [v.hash, v.origin]), [[now.hash, 'app'], [old.hash, 'import']]);
      assert.equal(listed?.[1].savedAt, Date.parse('2024-01-02T03:04:05.678Z'));
    });

    it('a restore moves a known version forward and records its origin as restore; a plain save keeps the origin', async () => {
      const { repo } = await open();
      const name = fresh('restore');
      const a = await save(repo, name, bundle('A'));
      await save(repo, name, bundle('B'));
      await save(repo, name, bundle('B')); // saving the latest again changes nothing of its origin
      assert.deepEqual((await repo.listVersions(name))?.map((v) => v.origin), ['app', 'app']);
      const restored = await repo.saveVersion(name, bundle('A'), { mode: 'save', origin: 'restore', description: 'x' });
      assert.deepEqual(restored, { ...a, isNew: false });
      const versions = await repo.listVersions(name);
      assert.deepEqual(versions?.map((v) => [v.hash, v.origin]), [
        [a.hash, 'restore'],
        [bundleHash(bundle('B')), 'app'],
      ]);
    });

    it('files come back exactly: unicode, CRLF, empty files, nested paths', async () => {
      const { repo } = await open();
      const name = fresh('exact');
      const files = { 'skill.md': '---\r\nname: x\r\n---\r\n', 'notes/ü.txt': 'naïve ☃ 𝄞', 'empty.txt': '', 'a/b/c.json': '{"k": [1, 2]}\n' };
      const saved = await save(repo, name, files);
      const v = await repo.getVersion(name, saved.hash);
      assert.deepEqual(v.files, files);
      assert.equal(v.fileCount, 4);
      assert.equal(v.sizeBytes, Object.values(files).reduce((s, t) => s + Buffer.byteLength(t), 0));
      assert.deepEqual((await repo.getVersionById(saved.versionId))?.files, files);
      assert.deepEqual([...(await repo.versionHashes([saved.versionId, 'nope', saved.versionId]))], [[saved.versionId, saved.hash]]);
    });

    it('a run records its version without moving an older one forward; racing records make one version', async () => {
      const { repo } = await open();
      const name = fresh('record');
      const a = await save(repo, name, bundle('A'));
      const b = await save(repo, name, bundle('B'));
      assert.deepEqual(await save(repo, name, bundle('A'), 'record'), { ...a, isNew: false });
      assert.equal((await repo.getSkill(name))?.latest?.hash, b.hash, 'B is still the latest');
      const recorded = await Promise.all([1, 2, 3, 4].map(() => save(repo, name, bundle('C, run from a folder'), 'record')));
      assert.equal(new Set(recorded.map((r) => r.versionId)).size, 1);
      assert.equal(recorded.filter((r) => r.isNew).length, 1);
      assert.equal((await repo.getSkill(name))?.latest?.hash, recorded[0].hash, 'a new bundle is the latest, as a save would make it');
    });

    it('racing saves of one new bundle make one version', async () => {
      const { repo } = await open();
      const name = fresh('race');
      const saved = await Promise.all([1, 2, 3, 4].map(() => save(repo, name, bundle('same'))));
      assert.equal(new Set(saved.map((s) => s.versionId)).size, 1);
      assert.equal(saved.filter((s) => s.isNew).length, 1);
    });

    it('create refuses a taken name; versions are found by hash or a prefix of it', async () => {
      const { repo } = await open();
      const name = fresh('create');
      const first = await save(repo, name, bundle('one'), 'create');
      await assert.rejects(save(repo, name, bundle('two'), 'create'), { code: 'skill_exists' });
      assert.equal((await repo.getVersion(name, first.hash.slice(0, 8))).id, first.versionId);
      assert.equal((await repo.getVersion(name, first.hash.toUpperCase())).id, first.versionId);
      await assert.rejects(repo.getVersion(name, first.hash.slice(0, 3)), { code: 'version_not_found' });
      await assert.rejects(repo.getVersion(name, 'f'.repeat(64)), { code: 'version_not_found' });
      await assert.rejects(repo.getVersion(name, "' OR 1=1 --"), { code: 'version_not_found' });
      await assert.rejects(repo.getVersion(fresh('nobody')), { code: 'skill_not_found' });
      // what is not a skill name names no skill (and never reaches the database, which refuses a NUL)
      assert.equal(await repo.getSkill('bad\u0000name'), null);
      await assert.rejects(repo.getVersion('Bad Name'), { code: 'skill_not_found' });
      await assert.rejects(repo.deleteSkill('x\u0000'), { code: 'skill_not_found' });
      assert.equal(await repo.listVersions(fresh('nobody')), null);
      assert.equal(await repo.getVersionById('not-a-uuid'), null);
      assert.equal(await repo.getVersionById('00000000-0000-0000-0000-000000000000'), null);
    });

    it('rename keeps the versions and can save the renamed skill.md as the latest; taken and unknown names are refused', async () => {
      const { repo } = await open();
      const [from, to, other] = [fresh('from'), fresh('to'), fresh('other')];
      const v1 = await save(repo, from, bundle('name: from'));
      await save(repo, other, bundle('x'));
      const renamed = await repo.renameSkill(from, to, { files: bundle('name: to'), description: 'd' });
      assert.equal(renamed?.isNew, true);
      assert.equal(await repo.getSkill(from), null);
      const versions = await repo.listVersions(to);
      assert.deepEqual(versions?.map((v) => v.hash), [renamed!.hash, v1.hash]);
      assert.equal(versions?.[0].origin, 'rename');
      await assert.rejects(repo.renameSkill(to, other), { code: 'skill_exists' });
      await assert.rejects(repo.renameSkill(fresh('ghost'), fresh('x')), { code: 'skill_not_found' });
      assert.ok((await repo.skillNames()).includes(to));
    });

    it('two skills renamed to one name at once: one wins, the other is told the name is taken', async () => {
      const { repo } = await open();
      const [a, b, to] = [fresh('ra'), fresh('rb'), fresh('rto')];
      await save(repo, a, bundle('a'));
      await save(repo, b, bundle('b'));
      const results = await Promise.allSettled([repo.renameSkill(a, to), repo.renameSkill(b, to)]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.equal(lost.reason.code, 'skill_exists');
      const left = [await repo.getSkill(a), await repo.getSkill(b)].filter(Boolean);
      assert.equal(left.length, 1, 'the loser keeps its own name');
      assert.ok(await repo.getSkill(to));
    });

    it('a failed run and a blocked run: the last run says what the runs list says of them (outcome, attention, where, why)', async () => {
      const { repo, store } = await open();
      const ended = async (name: string, end: { type: string; status: RunRecord['status']; error: JsonObject | null; report: JsonObject }) => {
        const v = await save(repo, name, bundle(name));
        // the bundle copy a run executes from is an absolute address in the data dir
        const run = makeRun({ skillVersionId: v.versionId, skillName: name, bundleDir: '/data/bundles/ab12' });
        await store.createRun(run, { events: [ev(run.id, 1)] });
        await store.commit(run.id, { events: [ev(run.id, 2, end.type, { error: end.error, report: end.report })], run: { status: end.status, error: end.error, report: end.report } });
        const last = (await repo.getSkill(name))?.lastRun;
        assert.equal(last?.id, run.id);
        return [last?.status, last?.outcome, last?.needsAttention, last?.failedAt, last?.errorMessage];
      };
      // a capability stage crashed: the run failed at that stage, its message names the bundle's file as the report does
      const crash = 'stage check (lint) crashed: TypeError: x is undefined (at /data/bundles/ab12/caps.mjs:12:5)';
      const failed = await ended(fresh('failed'), {
        type: 'run_failed',
        status: 'failed',
        error: { code: 'stage_crashed', message: crash, phase: 'draft', rung: 'post-model', capability: 'lint', stage: 'check', round: 1 },
        report: {
          outcome: 'failed',
          block_reason: 'TypeError: x is undefined (at caps.mjs:12:5)',
          failed_stage: { phase: 'draft', rung: 'post-model', stage: 'check', capability: 'lint', round: 1, error: 'TypeError: x is undefined (at caps.mjs:12:5)', position: 'draft/r1/post-model/check' },
          needs_attention: true,
          attention: 'failed',
        },
      });
      assert.deepEqual(failed, ['failed', 'failed', true, 'lint/check', 'stage check (lint) crashed: TypeError: x is undefined (at caps.mjs:12:5)']);
      // a guard stage denied a tool call (examples/research_brief, path_guard): the run completed blocked; it failed nowhere
      const denial = {
        outcome: 'blocked',
        block_reason: 'stage path_guard denied a tool call: reading secrets/keys.txt is not allowed by path_guard',
        failed_stage: null,
        blocked_by: { stage: 'path_guard', position: 'gather/r2/pre-tool/path_guard', call: 0, reason: 'reading secrets/keys.txt is not allowed by path_guard' },
      };
      const blocked = await ended(fresh('blocked'), { type: 'run_completed', status: 'completed', error: null, report: { ...denial, needs_attention: true, attention: 'blocked' } });
      assert.deepEqual(blocked, ['completed', 'blocked', true, null, null]);
      // the same run exported before reports said needs_attention (fixtures/replay/research_brief.json) and imported:
      // it needs attention as much, as its outcome says
      const imported = await ended(fresh('imported_blocked'), { type: 'run_completed', status: 'completed', error: null, report: denial });
      assert.deepEqual(imported, ['completed', 'blocked', true, null, null]);
    });

    it('a failed last run taken on through a chain of forks that completed no longer needs attention (the runs list\'s rule)', async () => {
      const { repo, store } = await open();
      const name = fresh('taken');
      const v = await save(repo, name, bundle(name));
      const failedRun = async (over: Partial<RunRecord>, status: RunRecord['status']) => {
        const run = makeRun({ skillName: name, ...over });
        await store.createRun(run, { events: [ev(run.id, 1)] });
        const failed = status === 'failed';
        const report: JsonObject = { outcome: failed ? 'failed' : 'succeeded', failed_stage: null, needs_attention: failed };
        const error: JsonObject | null = failed ? { code: 'workflow_aborted', message: 'postprocessor step 0 (python) failed: boom', phase: '__post__', step: 0, stepType: 'python' } : null;
        await store.commit(run.id, { events: [ev(run.id, 2, `run_${status}`)], run: { status, report, error } });
        return run;
      };
      const a = await failedRun({ skillVersionId: v.versionId }, 'failed');
      // its forks ran a draft (no saved version): the skill's last run stays A
      const b = await failedRun({ kind: 'fork', parentRunId: a.id, forkPoint: '__post__/0' }, 'failed');
      const attention = async () => [(await repo.getSkill(name))?.lastRun?.id, (await repo.getSkill(name))?.lastRun?.needsAttention];
      assert.deepEqual(await attention(), [a.id, true]);
      await failedRun({ kind: 'fork', parentRunId: b.id, forkPoint: '__post__/0' }, 'completed');
      assert.deepEqual(await attention(), [a.id, false]);
    });

    it('a blocked last run says which stage blocked it and why (as its runs list row does); a failed or succeeded one says none', async () => {
      const { repo, store } = await open();
      const lastOf = async (name: string, end: { type: string; status: RunRecord['status']; error: JsonObject | null; report: JsonObject }) => {
        const v = await save(repo, name, bundle(name));
        const run = makeRun({ skillVersionId: v.versionId, skillName: name, bundleDir: '/data/bundles/ab12' });
        await store.createRun(run, { events: [ev(run.id, 1)] });
        await store.commit(run.id, { events: [ev(run.id, 2, end.type, { error: end.error, report: end.report })], run: { status: end.status, error: end.error, report: end.report } });
        return (await repo.getSkill(name))?.lastRun?.blockedBy;
      };
      const blockedBy = { stage: 'path_guard', position: 'gather/r2/pre-tool/path_guard', call: 2, reason: 'reading secrets/keys.txt is not allowed by path_guard' };
      const blocked = await lastOf(fresh('bb_blocked'), { type: 'run_completed', status: 'completed', error: null, report: { outcome: 'blocked', failed_stage: null, blocked_by: blockedBy, needs_attention: true, attention: 'blocked' } });
      assert.deepEqual(blocked, { stage: 'path_guard', call: 2, reason: 'reading secrets/keys.txt is not allowed by path_guard' });
      const ok = await lastOf(fresh('bb_ok'), { type: 'run_completed', status: 'completed', error: null, report: { outcome: 'succeeded', blocked_by: null, needs_attention: false } });
      assert.equal(ok, null);
      const error = { code: 'model_error', message: 'the model gave up', phase: 'draft' };
      const failed = await lastOf(fresh('bb_failed'), { type: 'run_failed', status: 'failed', error, report: { outcome: 'failed', blocked_by: null, needs_attention: true, attention: 'failed' } });
      assert.equal(failed, null);
    });

    it("delete: the skill leaves the list, its versions stay readable by id, and its name is free for a new skill", async () => {
      const { repo, store } = await open();
      const name = fresh('gone');
      const v = await save(repo, name, bundle('old'));
      const run = makeRun({ skillVersionId: v.versionId, skillName: name });
      await store.createRun(run, { events: [ev(run.id, 1)] });
      const last = (await repo.getSkill(name))?.lastRun;
      assert.equal(last?.id, run.id, 'the last run of the skill is listed with it');
      // with what the runs list says of it: a run still going needs no attention and has no outcome yet
      assert.deepEqual([last?.status, last?.outcome, last?.needsAttention, last?.failedAt, last?.errorMessage], [run.status, null, false, null, null]);
      await repo.deleteSkill(name);
      assert.equal(await repo.getSkill(name), null);
      assert.ok(!(await repo.listSkills()).some((s) => s.name === name));
      assert.equal(await repo.wasDeleted(name), true);
      assert.deepEqual((await repo.getVersionById(v.versionId))?.files, bundle('old'), "a deleted skill's run can still read what it ran");
      await assert.rejects(repo.deleteSkill(name), { code: 'skill_not_found' });
      const again = await save(repo, name, bundle('new'), 'create');
      assert.notEqual(again.skillId, v.skillId);
      assert.equal((await repo.getSkill(name))?.versionCount, 1);
      assert.equal((await repo.getSkill(name))?.lastRun, null);
      assert.equal(await repo.wasDeleted(name), false);
    });
  });
}
