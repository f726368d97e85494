// `stagecraft import FILE…` beside the running app (`npm start` in one terminal): the app holds the
// embedded store, every file is checked here as on the store, and each is added by the app
// (POST /api/runs/import), printing what the same import prints on the store once the app has
// stopped — stdout byte for byte but the run's id, exit codes the same; a run already there
// `unchanged`, one of the same id with another log refused naming the file, as on the store.
// The exported runs: runs of another store (a second data dir, the CLI on it, no app).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import { documentHash, partHash } from '../lib/server/runs/export-run';
import type { RunExportView } from '../lib/views';
import type { CliResult } from './testing/spawn-cli';
import { besideApp } from './testing/beside-app';

const { dataDir, start, app, cli, call, note: said } = besideApp('sc-import-app-');
/** the store the exported runs come from */
const { cli: cliThere } = besideApp('sc-import-src-');

/** what differs from one imported run to the other: its id */
const same = (out: string) => out.replace(/\brun_[a-z0-9]+/g, 'RUN');

describe('stagecraft import while the app holds the embedded store', () => {
  const file = (name: string) => path.join(dataDir, `${name}.json`);
  let note: string;
  let x: string;
  const viaApp: Record<string, CliResult> = {};
  const commands = (): Record<string, string[]> => ({
    again: ['import', file('x')],
    againJson: ['import', file('x'), file('here'), '--json'],
    conflict: ['import', file('here'), file('forged'), '--json'],
    conflictText: ['import', file('forged')],
    invalid: ['import', file('broken'), '--json'],
  });
  before(async () => {
    for (const name of ['x', 'y']) {
      const ran = await cliThere(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json']);
      assert.equal(ran.code, 0, ran.err);
      const exported = await cliThere(['export', (JSON.parse(ran.out) as { runId: string }).runId, '--out', file(name)]);
      assert.equal(exported.code, 0, exported.err);
    }
    x = (JSON.parse(readFileSync(file('x'), 'utf8')) as RunExportView).run.id as string;
    // the same run id with another log, its hashes made again: a run that exists here and is not the file's
    const doc = JSON.parse(readFileSync(file('x'), 'utf8')) as RunExportView;
    const last = doc.events[doc.events.length - 1] as { at: number };
    last.at += 1;
    doc.hashes.events = partHash(doc.events);
    doc.sha256 = documentHash(doc);
    writeFileSync(file('forged'), JSON.stringify(doc));
    writeFileSync(file('broken'), readFileSync(file('y'), 'utf8').replace('"summarize"', '"summarise"'));
    await start();
    note = said();
    const done = (await call(routes.startRun, { body: { skill: 'summarize', input: { path: 'report.txt' } } })).runId;
    for (let i = 0; i < 600 && ['running', 'queued'].includes((await call(routes.getRun, { params: { id: done } })).status); i++) await new Promise((r) => setTimeout(r, 100));
    writeFileSync(file('here'), JSON.stringify(await call(routes.exportRun, { params: { id: done } })));
  });

  it('goes through the app: the run added by it, said once on stderr', async () => {
    const r = await cli(['import', file('x')]);
    viaApp.imported = r;
    assert.equal(r.code, 0, r.err);
    assert.ok(r.err.startsWith(`${note}\n`), r.err);
    assert.match(r.out, new RegExp(`^run ${x} \\(summarize, version \\w{12}\\): imported\\n$`));
    assert.equal((await call(routes.getRun, { params: { id: x } })).status, 'completed', 'the run is in the app');
    for (const [name, args] of Object.entries(commands())) {
      viaApp[name] = await cli(args);
      if (name !== 'invalid') assert.ok(viaApp[name].err.startsWith(`${note}\n`), `${name}: ${viaApp[name].err}`);
    }
    assert.match(viaApp.again.out, /: unchanged\n$/);
    assert.deepEqual((JSON.parse(viaApp.againJson.out) as { imported: { status: string }[] }).imported.map((i) => i.status), ['unchanged', 'unchanged']);
    assert.equal(viaApp.conflict.code, 1);
    const { error } = JSON.parse(viaApp.conflict.out) as { error: { code: string; message: string } };
    assert.equal(error.code, 'import_conflict');
    assert.ok(error.message.includes(`its log differs from the one in ${file('forged')}`), error.message);
    assert.equal((JSON.parse(viaApp.invalid.out) as { error: { code: string } }).error.code, 'export_invalid', 'checked here, before the app is asked');
  });

  it('once the app has stopped, the same imports print the same on the store itself', async () => {
    await app().stop();
    const r = await cli(['import', file('y')]);
    assert.equal(r.code, viaApp.imported.code, r.err);
    assert.equal(same(r.out), same(viaApp.imported.out), 'another run of the same store, imported');
    for (const [name, args] of Object.entries(commands())) {
      const direct = await cli(args);
      assert.equal(direct.code, viaApp[name].code, `${name}: ${direct.err}`);
      assert.equal(direct.out, viaApp[name].out, name);
    }
  });
});
