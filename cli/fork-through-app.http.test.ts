// `stagecraft fork RUN …` beside the running app (`npm start` in one terminal): the app holds the
// embedded store, and the fork goes through its HTTP API (POST /api/runs/<id>/fork, then followed to
// its end), printing what the same fork prints on the store once the app has stopped — stdout byte
// for byte but the new run's id, exit code the same, errors in the CLI's words (--at, --set).
// --skill DIR, --trust and a model script stay store_locked, saying why.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import type { CliResult } from './testing/spawn-cli';
import { besideApp, refusedThroughApp } from './testing/beside-app';

const { start, app, cli, call, note: said, dataDir } = besideApp('sc-fork-app-');

async function ended(id: string) {
  for (let i = 0; i < 600; i++) {
    const run = await call(routes.getRun, { params: { id } });
    if (run.status !== 'running' && run.status !== 'queued') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${id} did not end`);
}

/** what differs from one fork to the next: the new run's id (the parent's is the same), how long steps took */
const same = (out: string, parents: string[]) =>
  out.replace(/\brun_[a-z0-9]+/g, (id) => (parents.includes(id) ? id : 'RUN')).replace(/"durationMs":\d+/g, '"durationMs":0');

describe('stagecraft fork while the app holds the embedded store', () => {
  let failed: string;
  let completed: string;
  let fixed: string;
  let note: string;
  const viaApp: Record<string, CliResult> = {};
  const commands = (): Record<string, string[]> => ({
    rerun: ['fork', failed],
    rerunJson: ['fork', failed, '--json'],
    fixed: ['fork', failed, '--at', '__post__/1', '--version', fixed],
    edited: ['fork', completed, '--at', 'input', '--set', 'topic="replays"', '--json'],
    badEdit: ['fork', completed, '--at', 'input', '--set', 'audience.x=1', '--json'],
    badValue: ['fork', completed, '--at', 'input', '--value', badValue, '--json'],
    noPoint: ['fork', completed, '--json'],
    missing: ['fork', 'run_nope', '--json'],
  });
  // a run input its schema refuses, located in the file as on the store
  const badValue = path.join(dataDir, 'bad-input.json');
  before(async () => {
    await start();
    note = said();
    writeFileSync(badValue, '{\n  "topic": 7\n}\n');
    const files = (await call(routes.getSkill, { params: { name: 'blog_writer' } })).version!;
    fixed = files.hash;
    const input = JSON.parse(files.files['input.json']) as Record<string, string>;
    completed = (await call(routes.startRun, { body: { skill: 'blog_writer', input } })).runId;
    await ended(completed);
    // the latest version's postprocessor step fails: the run ends aborted at __post__/1
    const rendering = files.files['rendering.py'].replace('value["body"]))', 'value["text"]))');
    await call(routes.saveVersion, { params: { name: 'blog_writer' }, body: { files: { ...files.files, 'rendering.py': rendering } } });
    failed = (await call(routes.startRun, { body: { skill: 'blog_writer', input } })).runId;
    assert.equal((await ended(failed)).status, 'aborted');
  });

  it('goes through the app, said once on stderr', async () => {
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      viaApp[name] = r;
      assert.ok(r.err.startsWith(`${note}\n`), `${name}: ${r.err}`);
    }
    assert.equal(viaApp.rerun.code, 1);
    assert.ok(viaApp.rerun.out.startsWith(`fork of run ${failed} at __post__/1 (version `), viaApp.rerun.out);
    assert.equal(viaApp.fixed.code, 0, viaApp.fixed.out);
    assert.match(viaApp.fixed.out, /^reused from run_\w+'s recording \(not run again\): 2 model turns, 1 processor step; the rest ran live$/m);
    assert.equal((JSON.parse(viaApp.edited.out) as { parentRunId: string }).parentRunId, completed);
    assert.match((JSON.parse(viaApp.badEdit.out) as { error: { message: string } }).error.message, /^--set audience\.x: /, "in the CLI's words");
    assert.equal(viaApp.badValue.code, 2);
    assert.ok((JSON.parse(viaApp.badValue.out) as { error: { message: string } }).error.message.endsWith(`\n${badValue}:2:12: /topic must be string`), viaApp.badValue.out);
    assert.equal(viaApp.noPoint.code, 2);
    assert.match((JSON.parse(viaApp.noPoint.out) as { error: { message: string } }).error.message, /\(--at POSITION, /);
    const forkId = (JSON.parse(viaApp.rerunJson.out) as { runId: string }).runId;
    assert.equal((await call(routes.getRun, { params: { id: forkId } })).kind, 'fork', 'a fork, recorded in the app');
  });

  it('--skill, --trust and a model script cannot go through the app: store_locked, saying why', async () => {
    await refusedThroughApp(cli, 'fork', [
      [[failed, '--skill', 'examples/blog_writer'], /--skill DIR/],
      [[failed, '--trust'], /--trust is for code run here/],
      [[failed, '--model', 'scripted:model.yaml'], /names? a model script of this machine/],
    ]);
  });

  it('once the app has stopped, the same forks print the same on the store itself', async () => {
    await app().stop();
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      assert.equal(same(r.out, [failed, completed]), same(viaApp[name].out, [failed, completed]), name);
    }
  });
});
