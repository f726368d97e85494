// Replays and forks through lib/server on the in-memory host, with the real
// sandbox: an interrupted replay or fork resumes the way it started (the
// app's boot resumes every interrupted run); a fork of a fork; a failed run's
// first divergence from the last completed run of its skill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRun } from '../../kernel/runner';
import { crashAt, SimulatedCrash } from '../../kernel/faults';
import { compareLogs } from '../../kernel/compare';
import { createReplayModel } from '../../models';
import { kernelDeps, modelFor } from '../host';
import { memoryHost } from '../testing';
import { startSkillRun, prepareFolder } from './start-run';
import { resumeSkillRun } from './resume-run';
import { forkRun } from './fork-run';
import { replayRun } from './replay-run';
import { divergenceFromLastCompleted } from './compare-runs';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-replay-server-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));

test('an interrupted replay and an interrupted fork resume as they started, and end as an uninterrupted one would', async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const events = await host.store.readEvents(parent.runId);
  const prepared = await prepareFolder(host, 'summarize');
  for (const [mode, id] of [
    ['replay', 'replay_crashed'],
    ['fork', 'fork_crashed'],
  ] as const) {
    const model = mode === 'replay' ? createReplayModel([], { name: `replay:${parent.runId}` }) : modelFor(host, undefined, prepared.copyDir);
    const deps = kernelDeps(host, model, { runId: id, bundleDir: prepared.copyDir }, { faults: crashAt('after-commit', 1) });
    try {
      await assert.rejects(
        startRun(prepared.plan, deps, {
          input,
          skillText: prepared.files['skill.md'],
          runId: id,
          derivation: { mode, parentRunId: parent.runId, events, point: mode === 'fork' ? { at: '__post__/0', target: 'rerun' } : null },
        }),
        SimulatedCrash,
      );
    } finally {
      await deps.close();
    }
    assert.equal((await host.store.getRun(id))?.status, 'running');
    const out = await resumeSkillRun(host, id);
    assert.equal(out.status, 'completed', JSON.stringify(out.error));
    assert.deepEqual(out.output, parent.output);
    assert.deepEqual(compareLogs(events, await host.store.readEvents(id)).divergences, [], mode);
    const run = await host.store.getRun(id);
    assert.equal(run?.kind, mode);
    assert.equal(run?.parentRunId, parent.runId);
  }
});

test('a fork of a fork records its own parent; replaying a fork with an edit carries the edit (identical)', async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const first = await forkRun(host, parent.runId, { at: '__post__', set: [{ path: 'paragraphs', value: ['One.', 'Mail a@b.org.'] }] });
  assert.equal(first.status, 'completed');
  assert.deepEqual(first.output, { paragraphs: ['One.', 'Mail [email].'], redactions: 1 });
  const second = await forkRun(host, first.runId, { at: '__post__/0', set: [{ path: 'redactions', value: 9 }] });
  assert.equal(second.status, 'completed');
  assert.deepEqual(second.output, { paragraphs: ['One.', 'Mail [email].'], redactions: 9 });
  assert.equal((await host.store.getRun(second.runId))?.parentRunId, first.runId);
  // a replay of each fork applies its edit again: nothing diverges
  assert.equal((await replayRun(host, first.runId)).verdict, 'identical');
  assert.equal((await replayRun(host, second.runId)).verdict, 'identical');
});

test("a failed run's first divergence from the last completed run of its skill", async () => {
  const host = memoryHost({ cwd: workspace });
  assert.deepEqual(await divergenceFromLastCompleted(host, (await startSkillRun(host, { bundle: 'summarize', input })).runId), {
    runId: (await host.store.listRuns({ skillName: 'summarize', limit: 1 }))[0].id,
    baselineRunId: null,
    firstDivergence: null,
  });
  const ok = await startSkillRun(host, { bundle: 'summarize', input });
  const broken = path.join(workspace, 'broken');
  cpSync(path.join(workspace, 'summarize'), broken, { recursive: true });
  writeFileSync(path.join(broken, 'sanitize.py'), 'def sanitize(value):\n    raise ValueError("the sanitizer broke")\n');
  const failed = await startSkillRun(host, { bundle: 'broken', input });
  assert.equal(failed.status, 'aborted');
  const d = await divergenceFromLastCompleted(host, failed.runId);
  assert.equal(d.baselineRunId, ok.runId);
  assert.equal(d.firstDivergence?.position, '__post__/0');
  assert.equal(d.firstDivergence?.change, 'status');
  assert.deepEqual([d.firstDivergence?.a?.status, d.firstDivergence?.b?.status], ['ok', 'failed']);
});

test('a skill renamed since its run: a folder of the new name replays the run, a folder of another skill is still refused', async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  await host.skills.renameSkill('summarize', 'digest');
  const renamed = path.join(workspace, 'digest');
  cpSync(path.join(workspace, 'summarize'), renamed, { recursive: true });
  writeFileSync(path.join(renamed, 'skill.md'), readFileSync(path.join(renamed, 'skill.md'), 'utf8').replace(/^name: summarize$/m, 'name: digest'));
  const replay = await replayRun(host, parent.runId, { skillDir: renamed });
  assert.equal(replay.verdict, 'identical');
  const other = path.join(workspace, 'other');
  cpSync(renamed, other, { recursive: true });
  writeFileSync(path.join(other, 'skill.md'), readFileSync(path.join(renamed, 'skill.md'), 'utf8').replace(/^name: digest$/m, 'name: elsewhere'));
  await assert.rejects(replayRun(host, parent.runId, { skillDir: other }), /is of skill "summarize", and .* holds skill "elsewhere"/);
});

test("a run's own folder that now holds another skill is refused without --skill; one renamed with its skill still replays", async () => {
  const host = memoryHost({ cwd: workspace });
  const own = path.join(workspace, 'own-folder');
  cpSync(path.join(workspace, 'summarize'), own, { recursive: true });
  const parent = await startSkillRun(host, { bundle: own, input });
  const md = path.join(own, 'skill.md');
  const text = readFileSync(md, 'utf8');
  writeFileSync(md, text.replace(/^name: summarize$/m, 'name: elsewhere'));
  await assert.rejects(replayRun(host, parent.runId), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'skill_mismatch');
    assert.match(e.message, /its folder .*own-folder now holds skill "elsewhere"/);
    assert.match(e.message, /Use the version the run recorded \([0-9a-f]{12}\)/);
    assert.doesNotMatch(e.message, /--version|--skill/, 'the app is no command line');
    return true;
  });
  await host.skills.renameSkill('summarize', 'digest');
  writeFileSync(md, text.replace(/^name: summarize$/m, 'name: digest'));
  assert.equal((await replayRun(host, parent.runId)).verdict, 'identical');
});

test("a run's own folder whose skill.md code made a FIFO: the check of its skill neither waits on it nor reads through it", async () => {
  const host = memoryHost({ cwd: workspace });
  const own = path.join(workspace, 'fifo-folder');
  cpSync(path.join(workspace, 'summarize'), own, { recursive: true });
  const parent = await startSkillRun(host, { bundle: own, input });
  const md = path.join(own, 'skill.md');
  const other = readFileSync(md, 'utf8').replace(/^name: summarize$/m, 'name: elsewhere');
  unlinkSync(md);
  assert.equal(spawnSync('mkfifo', [md]).status, 0);
  // a writer at the FIFO's other end (code's): a host that opens it to read waits for one, then reads another skill
  const writer = spawn('python3', ['-c', `import os
fd = os.open(${JSON.stringify(md)}, os.O_WRONLY)
os.write(fd, ${JSON.stringify(other)}.encode())`], { stdio: 'ignore' });
  try {
    await assert.rejects(replayRun(host, parent.runId), (e: Error & { code?: string }) => {
      assert.notEqual(e.code, 'skill_mismatch', `the FIFO was read as the folder's skill.md: ${e.message}`);
      return true;
    });
  } finally {
    writer.kill('SIGKILL');
  }
});

test("a run's own folder of another skill, with no version of the run on record, names its skill's versions as the way out", async () => {
  const host = memoryHost({ cwd: workspace });
  const own = path.join(workspace, 'own-folder-unrecorded');
  cpSync(path.join(workspace, 'summarize'), own, { recursive: true });
  const parent = await startSkillRun(host, { bundle: own, input });
  writeFileSync(path.join(own, 'skill.md'), readFileSync(path.join(own, 'skill.md'), 'utf8').replace(/^name: summarize$/m, 'name: elsewhere'));
  host.skills.getVersionById = async () => null; // the version the run recorded is gone
  await assert.rejects(replayRun(host, parent.runId), (e: Error & { code?: string; details?: Record<string, unknown> }) => {
    assert.equal(e.code, 'skill_mismatch');
    assert.match(e.message, /its folder .* now holds skill "elsewhere"/);
    assert.match(e.message, /Use one of "summarize"'s saved versions/);
    assert.doesNotMatch(e.message, /leave --skill out/, 'no --skill was given: leaving it out is what failed');
    assert.equal(e.details?.ownFolder, true);
    assert.equal(e.details?.recordedVersion, undefined);
    return true;
  });
});
