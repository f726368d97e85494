// `stagecraft replay RUN… [--check] [--version]` beside the running app (`npm start` in one terminal):
// the app holds the embedded store, and each run is replayed by the app (POST /api/runs/<id>/replay),
// printing what the same replay prints on the store once the app has stopped — stdout byte for byte but
// the replay's own run id, exit codes the same (--check: 0 identical, 1 diverged, 2 not checked).
// An exported run file is imported by the app first (POST /api/runs/import), then replayed.
// --skill DIR and --trust stay store_locked, saying why.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import type { CliResult } from './testing/spawn-cli';
import { besideApp, refusedThroughApp } from './testing/beside-app';

const { dataDir, start, app, cli, call, note: said } = besideApp('sc-replay-app-');
const file = path.join(dataDir, 'exported.json');

/** what differs from one replay to the next: the replay's run id (the replayed run's is the same), how long steps took */
const same = (out: string, kept: string) => out.replace(/\brun_[a-z0-9]+/g, (id) => (id === kept ? id : 'RUN')).replace(/"durationMs":\d+/g, '"durationMs":0');

describe('stagecraft replay while the app holds the embedded store', () => {
  let done: string;
  let first: string;
  let note: string;
  const viaApp: Record<string, CliResult> = {};
  const commands = (): Record<string, string[]> => ({
    diverged: ['replay', done],
    divergedJson: ['replay', done, '--check', '--json'],
    identical: ['replay', done, '--version', first, '--check'],
    identicalJson: ['replay', done, '--version', first, '--json'],
    several: ['replay', done, 'run_nope', '--version', first, '--check'],
    severalJson: ['replay', done, 'run_nope', '--json'],
    missing: ['replay', 'run_nope', '--check', '--json'],
    file: ['replay', file, '--check'],
    fileJson: ['replay', file, '--version', first, '--json'],
  });
  before(async () => {
    await start();
    note = said();
    const v = (await call(routes.getSkill, { params: { name: 'summarize' } })).version!;
    first = v.hash;
    done = (await call(routes.startRun, { body: { skill: 'summarize', input: { path: 'report.txt' } } })).runId;
    for (let i = 0; i < 600; i++) {
      const run = await call(routes.getRun, { params: { id: done } });
      if (run.status !== 'running' && run.status !== 'queued') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // the run exported: a file the app imports (unchanged: the run is there) and replays
    writeFileSync(file, JSON.stringify(await call(routes.exportRun, { params: { id: done } })));
    // the latest version redacts otherwise: a replay against it diverges
    await call(routes.saveVersion, { params: { name: 'summarize' }, body: { files: { ...v.files, 'sanitize.py': v.files['sanitize.py'].replace('"[email]"', '"[mail]"') } } });
  });

  it('goes through the app, said once on stderr', async () => {
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      viaApp[name] = r;
      assert.ok(r.err.startsWith(`${note}\n`), `${name}: ${r.err}`);
    }
    assert.equal(viaApp.diverged.code, 0);
    assert.match(viaApp.diverged.out, new RegExp(`^run ${done} \\(summarize, version \\w+\\): diverged at `));
    assert.equal(viaApp.divergedJson.code, 1, '--check: diverged');
    assert.equal(viaApp.identical.code, 0);
    assert.match(viaApp.identical.out, /: identical — /);
    assert.equal(viaApp.several.code, 2, 'one run not checked');
    assert.equal(viaApp.missing.code, 2);
    // an exported run file: imported by the app, then replayed against the version it recorded
    assert.equal(viaApp.file.code, 0, viaApp.file.err);
    assert.match(viaApp.file.out, new RegExp(`^run ${done} \\(summarize, version ${first.slice(0, 12)}\\): identical — `));
    assert.equal((JSON.parse(viaApp.fileJson.out) as { identical: boolean }).identical, true);
    const replayId = (JSON.parse(viaApp.identicalJson.out) as { replayRunId: string }).replayRunId;
    assert.equal((await call(routes.getRun, { params: { id: replayId } })).kind, 'replay', 'a replay, recorded in the app');
  });

  it('--skill and --trust cannot go through the app: store_locked, saying why', async () => {
    await refusedThroughApp(cli, 'replay', [
      [[done, '--skill', 'examples/summarize'], /--skill DIR/],
      [[done, '--trust'], /--trust is for code run here/],
    ]);
  });

  it('once the app has stopped, the same replays print the same on the store itself', async () => {
    await app().stop();
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      assert.equal(same(r.out, done), same(viaApp[name].out, done), name);
    }
  });
});
