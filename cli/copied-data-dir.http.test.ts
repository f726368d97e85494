// A copy of the data dir the running app holds (`cp -a` of it, to try something on the copy): its lock
// and app.json came along, naming the app, so every command on the copy went through that app — to
// the original store: `replay --check` recorded its replay there, `runs` listed the original's runs.
// The copy's lock names another dir (by path and inode: data-dir-lock.ts), so a command on the copy
// takes it and works on the copy; the original stays the app's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import { runCli } from './testing/spawn-cli';
import { besideApp } from './testing/beside-app';

const { dataDir, start, env, cli, call } = besideApp('sc-copied-dir-');
const copy = `${dataDir}-copy`;
after(() => rmSync(copy, { recursive: true, force: true }));

describe('a data dir copied while the app holds it', () => {
  let runId: string;
  before(async () => {
    const made = await cli(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json']);
    assert.equal(made.code, 0, made.err);
    runId = (JSON.parse(made.out) as { runId: string }).runId;
    await start();
    assert.equal(spawnSync('cp', ['-a', dataDir, copy]).status, 0);
  });

  it('replay --check on the copy replays on the copy, not through the app on the original', async () => {
    const onCopy = { ...env(), STAGECRAFT_DATA_DIR: copy };
    const r = await runCli(['replay', '--check', runId, '--json'], { env: onCopy });
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /through the app/);
    const { verdict, replayRunId } = JSON.parse(r.out) as { verdict: string; replayRunId: string };
    assert.equal(verdict, 'identical');
    const inApp = (await call(routes.listRuns, { query: {} })).runs.map((x) => x.runId);
    assert.ok(!inApp.includes(replayRunId), 'the app\'s store has no replay of it');
    const listed = await runCli(['runs', '--json'], { env: onCopy });
    assert.ok((JSON.parse(listed.out) as { runs: { runId: string }[] }).runs.some((x) => x.runId === replayRunId), 'the copy has it');
    // the original is still the app's: a command on it goes through the app
    const original = await cli(['runs', '--json']);
    assert.match(original.err, /through the app/);
  });
});
