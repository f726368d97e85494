// `stagecraft run DIR --json` (and `fork RUN --json`, `replay RUN --json`; `resume RUN --json` goes through
// the same words, stop-words.ts) on the store stopped by SIGINT (Ctrl-C) or SIGTERM (a cancelled CI job)
// mid-run: besides stderr's words (stop-says-resume.test), stdout holds one JSON object, in the shape
// `run --queue --json` prints for a run it leaves — `{runId, status: "running", stoppedBy, resume, abort}`
// (a fork's with its parentRunId; a replay's in replay's shape: runId the replayed run, replayRunId the
// replay). Before, stdout held nothing: a --json consumer had no JSON and no run id.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { NAP_ONCE_STEP, writeOneStepSkill } from './testing/one-step-skill';
import { stoppedCli } from './testing/stopped-cli';

const t = tempCliEnv('sc-stop-json-');
after(t.cleanup);
for (const d of ['quick', 'napping']) mkdirSync(path.join(t.dir, d));
// two versions of one skill: the quick one's step returns at once, the other's naps (a run of it is stopped)
const quick = writeOneStepSkill(path.join(t.dir, 'quick'), 'napper', 'export async function step() { return { napped: false }; }\n');
const napping = writeOneStepSkill(path.join(t.dir, 'napping'), 'napper', NAP_ONCE_STEP);

const workspaces = () => {
  const dir = path.join(t.dataDir, 'workspaces');
  return existsSync(dir) ? readdirSync(dir).map((w) => path.join(dir, w)) : [];
};

/** `stagecraft ARGS…` stopped by `signal` once a new workspace was marked napping: what it printed */
async function stopped(args: string[], signal: NodeJS.Signals, workspace?: string) {
  const before = new Set(workspaces());
  const isNapping = () => (workspace ? [workspace] : workspaces().filter((w) => !before.has(w))).some((w) => existsSync(path.join(w, 'napping')));
  const s = await stoppedCli(args, t.env, signal, isNapping);
  assert.equal(s.signal ?? String(s.code), signal, s.err);
  const stoppedId = new RegExp(`stopped by ${signal}: run (run_\\w+) stays as it was`).exec(s.err)?.[1];
  assert.ok(stoppedId, s.err);
  const lines = s.out.trim().split('\n');
  assert.equal(lines.length, 1, s.out);
  return { id: stoppedId, json: JSON.parse(lines[0]) as Record<string, unknown> };
}

const said = (id: string, signal: string) => ({ status: 'running', stoppedBy: signal, resume: `stagecraft resume ${id}`, abort: `stagecraft abort ${id}` });

async function quickRun(): Promise<string> {
  const r = await runCli(['run', quick, '--json'], { env: t.env });
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out) as { runId: string }).runId;
}

test('run --json stopped by SIGINT prints the run it leaves as JSON on stdout', async () => {
  const workspace = path.join(t.dir, 'ws');
  mkdirSync(workspace);
  const { id, json } = await stopped(['run', napping, '--json', '--workspace', workspace], 'SIGINT', workspace);
  assert.deepEqual(json, { runId: id, ...said(id, 'SIGINT') });
});

test('fork RUN --json stopped by SIGTERM prints the fork it leaves, with its parent', async () => {
  const parent = await quickRun();
  const { id, json } = await stopped(['fork', parent, '--at', '__post__', '--skill', napping, '--json'], 'SIGTERM');
  assert.deepEqual(json, { runId: id, ...said(id, 'SIGTERM'), parentRunId: parent });
});

test("replay RUN --json stopped by SIGINT prints the replay it leaves in replay's shape", async () => {
  const parent = await quickRun();
  const { id, json } = await stopped(['replay', parent, '--skill', napping, '--json'], 'SIGINT');
  assert.deepEqual(json, { runId: parent, replayRunId: id, ...said(id, 'SIGINT') });
});

test('replay FILE RUN --json stopped at the second prints the first replayed and the replay it leaves', async () => {
  // the first, an export of a quick run, replays with its own version; the second, a run of the napping
  // version (in a workspace marked already, so it ended at once), with the skill's latest: that one naps
  const exported = path.join(t.dir, 'quick-run.json');
  const ex = await runCli(['export', await quickRun(), '--out', exported], { env: t.env });
  assert.equal(ex.code, 0, ex.err);
  const marked = path.join(t.dir, 'ws-marked');
  mkdirSync(marked);
  writeFileSync(path.join(marked, 'napping'), '');
  const second = await runCli(['run', napping, '--json', '--workspace', marked], { env: t.env });
  assert.equal(second.code, 0, second.err);
  const b = (JSON.parse(second.out) as { runId: string }).runId;
  const { id, json } = await stopped(['replay', exported, b, '--json'], 'SIGINT');
  const replays = json.replays as Record<string, unknown>[];
  assert.equal(json.identical, false);
  assert.deepEqual(
    replays.map((r) => r.verdict ?? r.status),
    ['identical', 'running'],
  );
  assert.deepEqual(replays[1], { runId: b, replayRunId: id, ...said(id, 'SIGINT') });
});
