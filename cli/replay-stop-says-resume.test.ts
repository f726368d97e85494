// `stagecraft replay RUN` (and `replay --check RUN`) on the store stopped by SIGINT (Ctrl-C) or SIGTERM
// (a cancelled CI job) while its replay runs: the replay is left recorded as running, as a stopped
// `run`'s or `fork`'s run is, and the command says so the same way (stop-says-resume.test,
// fork-stop-says-resume.test) — which run, `stagecraft resume RUN` to take it up — before it dies of the
// signal. Before, it died saying nothing, the replay's id printed nowhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { NAP_ONCE_STEP, writeOneStepSkill } from './testing/one-step-skill';
import { stoppedCli } from './testing/stopped-cli';

const t = tempCliEnv('sc-replay-stop-');
after(t.cleanup);
for (const d of ['recorded', 'napping']) mkdirSync(path.join(t.dir, d));
// the recorded run's version returns at once; the version replayed with (--skill) naps, once per
// workspace: it marks its workspace first, and a resume's call finds the mark and returns at once
const recorded = writeOneStepSkill(path.join(t.dir, 'recorded'), 'napper', 'export async function step() { return { napped: false }; }\n');
const napping = writeOneStepSkill(path.join(t.dir, 'napping'), 'napper', NAP_ONCE_STEP);

const workspaces = () => {
  const dir = path.join(t.dataDir, 'workspaces');
  return existsSync(dir) ? readdirSync(dir).map((w) => path.join(dir, w)) : [];
};

for (const [signal, check] of [['SIGTERM', true], ['SIGINT', false]] as const) {
  const cmd = `replay${check ? ' --check' : ''}`;
  test(`${signal} mid-\`${cmd}\` names the replay and \`stagecraft resume RUN\`, which then finishes it`, async () => {
    const parent = await runCli(['run', recorded, '--json'], { env: t.env });
    assert.equal(parent.code, 0, parent.err);
    const parentId = (JSON.parse(parent.out) as { runId: string }).runId;
    const before = new Set(workspaces());
    const isNapping = () => workspaces().some((w) => !before.has(w) && existsSync(path.join(w, 'napping')));
    const args = ['replay', ...(check ? ['--check'] : []), parentId, '--skill', napping];
    const { err, ...stopped } = await stoppedCli(args, t.env, signal, isNapping);
    assert.equal(stopped.signal ?? String(stopped.code), signal, err);
    const replayId = new RegExp(`stopped by ${signal}: run (run_\\w+) stays as it was`).exec(err)?.[1];
    assert.ok(replayId, err);
    assert.notEqual(replayId, parentId);
    assert.match(err, new RegExp(`take it up with \`stagecraft resume ${replayId}\`, or end it with \`stagecraft abort ${replayId}\``));
    const resumed = await runCli(['resume', replayId, '--json'], { env: t.env });
    assert.equal(resumed.code, 0, resumed.err);
    assert.deepEqual(JSON.parse(resumed.out).output, { greeting: 'hi', napped: true });
    const runs = JSON.parse((await runCli(['runs', '--json'], { env: t.env })).out) as { runs: { runId: string; kind: string; parentRunId: string | null }[] };
    assert.deepEqual(
      runs.runs.filter((r) => r.runId === replayId).map((r) => [r.kind, r.parentRunId]),
      [['replay', parentId]],
    );
  });
}
