// The CLI beside the running app (`npm start` in one terminal, `npx stagecraft runs` in another): the
// app holds the embedded store, and `runs`, `events`, `abort`, `export`, `compare` and `versions` go through its HTTP API,
// printing what they print on the store itself (checked against the same commands once the app has
// stopped); a command that cannot go through it says which app holds the store. A lock another
// process holds, with an app.json that is not its own, is `store_locked` as before; an app that does
// not answer is `store_locked` saying so.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import { freePort } from '../lib/server/http/testing/app-server';
import { acquireDataDirLock } from '../lib/store/data-dir-lock';
import { APP_FILE } from '../lib/store/app-file';
import type { CliResult } from './testing/spawn-cli';
import { besideApp } from './testing/beside-app';

type Cli = CliResult;

const { dataDir, start, app, cli, call, note: said } = besideApp('sc-cli-app-');
/** a data dir no app of this test holds, with the CLI on it */
const { dataDir: elsewhere, cli: cliElsewhere } = besideApp('sc-cli-other-');

async function waitForStatus(id: string, done: (s: string) => boolean) {
  for (let i = 0; i < 600; i++) {
    const run = await call(routes.getRun, { params: { id } });
    if (done(run.status)) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${id} did not get there`);
}

/** an export without what differs from one export to the next (when it was made, and so its hash) */
const exported = (text: string) => {
  const { exportedAt: _at, sha256: _sha, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};

describe('the CLI while the app holds the embedded store', () => {
  const viaApp: Record<string, Cli> = {};
  let done: string;
  let stopped: string;
  let note: string;
  /** each command, by a name: through the app, then on the store itself */
  const commands = () => ({
    runs: ['runs'],
    runsJson: ['runs', '--json'],
    runsFiltered: ['runs', '--status', 'aborted', '--skill', 'sleeper', '--json'],
    runsNone: ['runs', '--skill', 'nosuchskill'],
    runsRange: ['runs', '--since', '2020', '--until', '2100-01', '--outcome', 'succeeded,blocked', '--search', 'run_', '--limit', '1'],
    runsAttention: ['runs', '--attention', '--failed', '__post__/1', '--json'],
    events: ['events', done],
    eventsJson: ['events', done, '--json'],
    export: ['export', done],
    missing: ['events', 'run_nope', '--json'],
    compare: ['compare', done, stopped],
    compareJson: ['compare', done, stopped, '--json'],
    versions: ['versions', 'sleeper'],
    versionsJson: ['versions', 'sleeper', '--json'],
    versionsNone: ['versions', 'nosuchskill', '--json'],
  });
  before(async () => {
    await start();
    note = said();
    done = (await call(routes.startRun, { body: { skill: 'summarize', input: { path: 'report.txt' } } })).runId;
    await waitForStatus(done, (s) => s !== 'running' && s !== 'queued');
    // a run whose postprocessor step sleeps: still running when the CLI aborts it
    await call(routes.createSkill, { body: { name: 'sleeper', from: 'blog_writer' } });
    const files = (await call(routes.getSkill, { params: { name: 'sleeper' } })).version!.files;
    const rendering = `${files['rendering.py']}\n\ndef count_words(value):\n    import time\n    time.sleep(120)\n    return {"word_count": 1, "reading_minutes": 1}\n`;
    await call(routes.saveVersion, { params: { name: 'sleeper' }, body: { files: { ...files, 'rendering.py': rendering } } });
    stopped = (await call(routes.startRun, { body: { skill: 'sleeper', input: JSON.parse(files['input.json']) } })).runId;
    await waitForStatus(stopped, (s) => s === 'running');
  });

  it('abort goes through the app: the run ends aborted, said as the command says it', async () => {
    const r = await cli(['abort', stopped, '--reason', 'from the other terminal']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.split('\n')[0], `run ${stopped}: aborted; it will not be resumed`);
    assert.equal(r.err.trim(), note, 'said once, on stderr');
    const run = await call(routes.getRun, { params: { id: stopped } });
    assert.equal(run.status, 'aborted');
    assert.match(String(run.error?.message), /from the other terminal/);
    const again = await cli(['abort', stopped, '--json']);
    assert.equal(again.code, 1);
    assert.equal((JSON.parse(again.out) as { error: { code: string } }).error.code, 'run_finished', 'the app\'s error, as the store would have said it');
  });

  it('runs, events, export, compare and versions go through the app, said once on stderr, stdout as it is', async () => {
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      viaApp[name] = r;
      assert.ok(r.err.startsWith(`${note}\n`), `${name}: ${r.err}`);
      assert.ok(!r.out.includes('through the app'), name);
    }
    assert.equal(viaApp.runs.code, 0);
    assert.equal(viaApp.runs.out.trim().split('\n').length, 2, viaApp.runs.out);
    assert.deepEqual((JSON.parse(viaApp.runsFiltered.out) as { runs: { runId: string }[] }).runs.map((r) => r.runId), [stopped]);
    assert.match(viaApp.runsNone.err, /no skill is named nosuchskill now/);
    assert.match(viaApp.runsRange.err, /more: stagecraft runs --cursor /, 'one a page: the next one is said');
    assert.equal((JSON.parse(viaApp.eventsJson.out) as { events: unknown[] }).events.length, viaApp.events.out.trim().split('\n').length);
    assert.equal(viaApp.missing.code, 1);
    assert.equal((JSON.parse(viaApp.missing.out) as { error: { code: string } }).error.code, 'run_not_found');
    assert.equal(viaApp.compare.code, 0);
    assert.equal((JSON.parse(viaApp.versionsJson.out) as { versions: unknown[] }).versions.length, 2);
    assert.match((JSON.parse(viaApp.versionsNone.out) as { error: { message: string } }).error.message, /stagecraft push DIR/, 'in the CLI\'s words');
  });

  it('a command that cannot go through the app says which app holds the store, and what to do', async () => {
    // (`pull` was this command until it went through the app: pull-through-app.http.test.ts)
    const r = await cli(['resume', '--json']);
    assert.equal(r.code, 1);
    const { error } = JSON.parse(r.out) as { error: { code: string; message: string; appUrl: string } };
    assert.equal(error.code, 'store_locked');
    assert.ok(error.message.startsWith(`The embedded store in ${dataDir} is in use by another process: pid `), error.message);
    assert.ok(error.message.includes(`That process is the Stagecraft app at ${app().url}: use the app at ${app().url}, or stop it`), error.message);
    assert.equal(error.appUrl, app().url);
  });

  it('a worker cannot go through the app: store_locked, saying why', async () => {
    const r = await cli(['worker']);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /That process is the Stagecraft app at /);
    assert.match(r.err, /`stagecraft worker` cannot go through it here: a worker takes runs from the queue of a Postgres store \(DATABASE_URL\)/);
  });

  it('once the app has stopped, the same commands print the same on the store itself', async () => {
    assert.ok(existsSync(path.join(dataDir, APP_FILE)), 'the app said where it listens');
    await app().stop();
    assert.ok(!existsSync(path.join(dataDir, APP_FILE)), 'and took it back as it stopped');
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      if (name === 'export') assert.deepEqual(exported(r.out), exported(viaApp.export.out));
      else assert.equal(r.out, viaApp[name].out, name);
      assert.equal(r.err, viaApp[name].err.slice(note.length + 1), `${name}: the same on stderr but the note`);
    }
  });
});

describe('a lock the app does not hold', () => {
  it('is store_locked as before, an app.json of a process gone or another process notwithstanding', async () => {
    const lock = acquireDataDirLock(elsewhere);
    try {
      const before = await cliElsewhere(['runs', '--json']);
      // an app that died: its app.json names a pid no process has
      writeFileSync(path.join(elsewhere, APP_FILE), JSON.stringify({ url: 'http://127.0.0.1:9', pid: 2 ** 22 + 7, startedAt: Date.now() }));
      const stale = await cliElsewhere(['runs', '--json']);
      for (const r of [before, stale]) {
        assert.equal(r.code, 1);
        const { error } = JSON.parse(r.out) as { error: { code: string; message: string } };
        assert.equal(error.code, 'store_locked');
        assert.match(error.message, new RegExp(`is in use by another process: pid ${process.pid}\\b`));
        assert.doesNotMatch(error.message, /Stagecraft app/);
        assert.doesNotMatch(r.err, /through the app/);
      }
      assert.equal(stale.out, before.out);
    } finally {
      lock.release();
    }
  });

  it('an app that does not answer: store_locked, saying so', async () => {
    const lock = acquireDataDirLock(elsewhere);
    try {
      const url = `http://127.0.0.1:${await freePort()}`;
      writeFileSync(path.join(elsewhere, APP_FILE), JSON.stringify({ url, pid: process.pid, startedAt: Date.now() }));
      const r = await cliElsewhere(['runs', '--json']);
      assert.equal(r.code, 1);
      const { error } = JSON.parse(r.out) as { error: { code: string; message: string } };
      assert.equal(error.code, 'store_locked');
      assert.ok(error.message.startsWith(`The embedded store in ${elsewhere} is in use by another process: pid ${process.pid}`), error.message);
      assert.ok(error.message.includes(`That process is the Stagecraft app at ${url}, and it did not answer`), error.message);
    } finally {
      lock.release();
    }
  });
});
