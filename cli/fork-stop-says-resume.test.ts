// `stagecraft fork RUN` on the store stopped by SIGINT (Ctrl-C) or SIGTERM (a cancelled CI job) while
// its fork runs: the fork is left recorded as running, as a stopped `run`'s run is, and the command
// says so the same way (stop-says-resume.test) — which run, `stagecraft resume RUN` to take it up —
// before it dies of the signal. Before, it died saying nothing, the fork's id printed nowhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';
import { stoppedCli } from './testing/stopped-cli';

const t = tempCliEnv('sc-fork-stop-');
after(t.cleanup);
// the step naps when the value it is given asks for it (`nap`, set by the fork), once per workspace:
// it marks its workspace first, and a resume's call finds the mark and returns at once
const bundle = writeOneStepSkill(
  t.dir,
  'napper',
  `import { existsSync, writeFileSync } from 'node:fs';
export async function step(v) {
  if (!v.nap || existsSync('napping')) return { napped: Boolean(v.nap) };
  writeFileSync('napping', '');
  await new Promise((r) => setTimeout(r, 60000));
  return { napped: false };
}
`,
);

const workspaces = () => {
  const dir = path.join(t.dataDir, 'workspaces');
  return existsSync(dir) ? readdirSync(dir).map((w) => path.join(dir, w)) : [];
};

// SIGINT only: SIGTERM goes through the same words (stop-words.ts), tested on `run` by stop-says-resume.test
for (const signal of ['SIGINT'] as const) {
  test(`${signal} mid-fork names the fork and \`stagecraft resume RUN\`, which then finishes it`, async () => {
    const parent = await runCli(['run', bundle, '--json'], { env: t.env });
    assert.equal(parent.code, 0, parent.err);
    const parentId = (JSON.parse(parent.out) as { runId: string }).runId;
    const before = new Set(workspaces());
    const napping = () => workspaces().some((w) => !before.has(w) && existsSync(path.join(w, 'napping')));
    const { err, ...stopped } = await stoppedCli(['fork', parentId, '--at', '__post__', '--set', 'nap=true'], t.env, signal, napping);
    assert.equal(stopped.signal ?? String(stopped.code), signal, err);
    const forkId = new RegExp(`stopped by ${signal}: run (run_\\w+) stays as it was`).exec(err)?.[1];
    assert.ok(forkId, err);
    assert.notEqual(forkId, parentId);
    assert.match(err, new RegExp(`take it up with \`stagecraft resume ${forkId}\`, or end it with \`stagecraft abort ${forkId}\``));
    const resumed = await runCli(['resume', forkId, '--json'], { env: t.env });
    assert.equal(resumed.code, 0, resumed.err);
    assert.deepEqual(JSON.parse(resumed.out).output, { greeting: 'hi', nap: true, napped: true });
    const runs = JSON.parse((await runCli(['runs', '--json'], { env: t.env })).out) as { runs: { runId: string; kind: string; parentRunId: string | null }[] };
    assert.deepEqual(
      runs.runs.filter((r) => r.runId === forkId).map((r) => [r.kind, r.parentRunId]),
      [['fork', parentId]],
    );
  });
}
