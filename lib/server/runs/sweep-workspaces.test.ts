// Workspaces of finished runs go after the retention period; a running run keeps its own, and a folder
// the user named with --workspace is never removed (only Stagecraft's link to it).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { durationFromEnv, gitBaselineOf } from '../host';
import { memoryHost } from '../testing';
import { startSkillRun } from './start-run';
import { removeWithin } from '../../sandbox/remove-within';
import { removeTree, SWEPT_MARKER, sweepWorkspaces, sweepWorkspacesIfDue } from './sweep-workspaces';

const root = mkdtempSync(path.join(tmpdir(), 'sc-sweep-'));
after(() => rmSync(root, { recursive: true, force: true }));
const bundle = path.join(root, 'writer');
mkdirSync(bundle);
writeFileSync(
  path.join(bundle, 'skill.md'),
  `---
name: writer
entry: go
graph:
  go: []
output_schema: { type: object }
permissions:
  ops: [file/write]
  effects: [fs.write]
postprocessor:
  output_schema: { type: object }
  steps:
    - { type: run_op, op: file/write, args: { path: out/notes.txt, content: written }, into: w }
---
Go.
`,
);
writeFileSync(path.join(bundle, 'model.yaml'), 'turns:\n  - finish: {}\n');
const DAY = 24 * 60 * 60 * 1000;

test('after the retention period (24h by default) a finished run’s workspace goes; before it, and for a run not finished, it stays', async () => {
  const host = memoryHost({ cwd: root });
  const done = await startSkillRun(host, { bundle, input: {} });
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const mine = path.join(host.workspacesDir, done.runId);
  assert.equal(readFileSync(path.join(mine, 'out/notes.txt'), 'utf8'), 'written');
  assert.ok(existsSync(gitBaselineOf(host, done.runId)), 'the record of the workspace’s own .git entries is made');

  const userFolder = path.join(root, 'my-folder');
  mkdirSync(userFolder);
  writeFileSync(path.join(userFolder, 'keep.txt'), 'mine');
  const named = await startSkillRun(host, { bundle, input: {}, workspace: userFolder });
  assert.equal(named.status, 'completed');
  assert.ok(lstatSync(path.join(host.workspacesDir, named.runId)).isSymbolicLink());

  const running = await host.store.listRuns().then((runs) => ({ ...runs[0], id: 'run-still-going', status: 'running' as const, updatedAt: 0 }));
  await host.store.createRun(running, { events: [] });
  mkdirSync(path.join(host.workspacesDir, running.id));
  mkdirSync(path.join(host.workspacesDir, 'no-such-run'));

  assert.deepEqual(await sweepWorkspaces(host), [], 'nothing is past 24h yet');
  assert.ok(existsSync(mine));

  const removed = await sweepWorkspaces(host, Date.now() + 2 * DAY);
  assert.deepEqual(removed.sort(), [done.runId, named.runId, 'no-such-run'].sort());
  assert.equal(existsSync(mine), false, 'the finished run’s workspace is removed');
  assert.equal(existsSync(gitBaselineOf(host, done.runId)), false, '…and the record of its .git entries');
  assert.equal(existsSync(path.join(host.workspacesDir, named.runId)), false, 'the link to the named folder is removed…');
  assert.equal(readFileSync(path.join(userFolder, 'keep.txt'), 'utf8'), 'mine', '…and the folder, with what the run wrote there, is the user’s');
  assert.equal(readFileSync(path.join(userFolder, 'out/notes.txt'), 'utf8'), 'written');
  assert.ok(existsSync(path.join(host.workspacesDir, running.id)), 'a run that has not finished keeps its workspace');
});

test('STAGECRAFT_WORKSPACE_RETENTION sets the period (0: at the next sweep); a bad value names the variable', async () => {
  const host = memoryHost({ cwd: root, env: { STAGECRAFT_WORKSPACE_RETENTION: '0' } });
  const done = await startSkillRun(host, { bundle, input: {} });
  assert.deepEqual(await sweepWorkspaces(host), [done.runId]);
  assert.equal(durationFromEnv({ R: '30m' }, 'R', 1), 30 * 60_000);
  assert.equal(durationFromEnv({ R: '7d' }, 'R', 1), 7 * DAY);
  assert.equal(durationFromEnv({}, 'R', 5), 5);
  assert.throws(() => durationFromEnv({ R: 'soon' }, 'R', 1), /R="soon": give a duration such as 30m, 24h or 7d/);
});

test('a short command sweeps at most once an hour per data dir: the marker says when one last did, and is no workspace', async () => {
  const host = memoryHost({ cwd: root, env: { STAGECRAFT_WORKSPACE_RETENTION: '2h' } });
  const first = await startSkillRun(host, { bundle, input: {} });
  const now = Date.now() + 3 * 60 * 60_000; // past the retention of runs finished now
  assert.deepEqual(await sweepWorkspacesIfDue(host, now), [first.runId], 'due: none swept before');
  assert.ok(existsSync(path.join(host.workspacesDir, SWEPT_MARKER)));
  const second = await startSkillRun(host, { bundle, input: {} });
  assert.equal(await sweepWorkspacesIfDue(host, now + 59 * 60_000), null, 'not due within the hour');
  assert.ok(existsSync(path.join(host.workspacesDir, second.runId)));
  assert.deepEqual(await sweepWorkspacesIfDue(host, now + 61 * 60_000), [second.runId], 'due again after it');
  assert.deepEqual(await sweepWorkspaces(host, now + 3 * DAY), [], 'the marker is never swept as a workspace');
  assert.ok(existsSync(path.join(host.workspacesDir, SWEPT_MARKER)));
});

test('at retention 0 every short command sweeps: a finished run’s workspace goes after the next command, as documented', async () => {
  const host = memoryHost({ cwd: root, env: { STAGECRAFT_WORKSPACE_RETENTION: '0' } });
  const first = await startSkillRun(host, { bundle, input: {} });
  const now = Date.now();
  assert.deepEqual(await sweepWorkspacesIfDue(host, now), [first.runId]);
  const second = await startSkillRun(host, { bundle, input: {} });
  assert.deepEqual(await sweepWorkspacesIfDue(host, now + 1000), [second.runId], 'a second later: swept again');
});

test('a workspace nested 20,000 folders deep (code can make one) is removed, and the sweep goes on to the others', async () => {
  const host = memoryHost({ cwd: root });
  mkdirSync(host.workspacesDir, { recursive: true });
  const deep = path.join(host.workspacesDir, 'run-deep');
  const plain = path.join(host.workspacesDir, 'run-plain');
  mkdirSync(deep);
  mkdirSync(plain);
  const made = spawnSync('python3', ['-c', 'import os\nfor _ in range(20000):\n    os.mkdir("d")\n    os.chdir("d")'], { cwd: deep });
  assert.equal(made.status, 0, String(made.stderr));
  const old = (Date.now() - 2 * DAY) / 1000;
  for (const p of [deep, plain]) utimesSync(p, old, old);
  const removed = await sweepWorkspaces(host);
  assert.deepEqual(removed.sort(), ['run-deep', 'run-plain']);
  assert.equal(existsSync(deep), false);
  assert.equal(existsSync(plain), false);
});

/**
 * A workspace whose folder `d` a process left over keeps swapping for a link to a host folder holding
 * files of the same names (`d` a real folder, then a link, and back): removing it must never unlink a
 * host file. Each attempt waits until the swap has been seen both ways, then removes the workspace.
 */
async function removeWhileSwapped(remove: (place: string) => Promise<unknown>, attempts: number, stopWhenLost: boolean): Promise<{ lost: number; tried: number }> {
  const base = mkdtempSync(path.join(root, 'swap-'));
  const host = path.join(base, 'host');
  mkdirSync(host);
  const N = 500;
  for (let i = 0; i < N; i++) writeFileSync(path.join(host, `f${i}`), 'keep');
  let tried = 0;
  for (; tried < attempts && !(stopWhenLost && readdirSync(host).length < N); tried++) {
    const ws = path.join(base, `ws${tried}`);
    mkdirSync(path.join(ws, 'd'), { recursive: true });
    for (let i = 0; i < N; i++) writeFileSync(path.join(ws, 'd', `f${i}`), 'x');
    const flipper = spawn(
      'python3',
      [
        '-c',
        `import os, time
os.chdir(${JSON.stringify(ws)})
while True:
    try:
        os.rename("d", "real"); os.symlink(${JSON.stringify(host)}, "d"); time.sleep(0.0003)
        os.unlink("d"); os.rename("real", "d"); time.sleep(0.0003)
    except OSError:
        pass
`,
      ],
      { stdio: 'ignore' },
    );
    try {
      // met both ways before the removal starts: `d` seen as the link, and as the real folder (bounded: 10,000 looks a millisecond apart)
      const seen = { link: false, real: false };
      for (let k = 0; k < 10_000 && !(seen.link && seen.real); k++) {
        const st = lstatSync(path.join(ws, 'd'), { throwIfNoEntry: false });
        if (st?.isSymbolicLink()) seen.link = true;
        else if (st?.isDirectory()) seen.real = true;
        await new Promise((r) => setTimeout(r, 1));
      }
      assert.ok(seen.link && seen.real, `the swap was never seen both ways: ${JSON.stringify(seen)}`);
      await remove(ws);
    } finally {
      flipper.kill('SIGKILL');
    }
  }
  const lost = N - readdirSync(host).length;
  rmSync(base, { recursive: true, force: true });
  return { lost, tried };
}

test('a folder swapped for a link to a host folder while its workspace is removed: no host file goes', async () => {
  const { lost, tried } = await removeWhileSwapped(removeTree, 6, false);
  assert.equal(lost, 0, `host files unlinked through the link: ${lost} in ${tried} removals`);
});

test('the same race against the descriptor walk alone (no rm -rf after it): no host file goes', async () => {
  const { lost, tried } = await removeWhileSwapped((ws) => removeWithin(ws).catch(() => undefined), 6, false);
  assert.equal(lost, 0, `host files unlinked through the link: ${lost} in ${tried} removals`);
});

test('the same race unlinks host files through Node’s recursive rm (so the test above can fail)', async () => {
  const { lost } = await removeWhileSwapped((ws) => rm(ws, { recursive: true, force: true }).catch(() => undefined), 40, true);
  assert.ok(lost > 0, 'Node’s rm never went through the link: the race is not exercised here');
});
