// `stagecraft resume RUN` beside the running app (`npm start` in one terminal): the app holds the
// embedded store, and the run is resumed by the app (POST /api/runs/<id>/resume) and followed to its
// end, printing what the same resume prints on the store once the app has stopped — stdout byte for
// byte but the run's id, exit codes the same; a completed run printed as it is, an aborted one refused
// as the store refuses it. `resume` of every run and `resume RUN --model` stay store_locked, saying why.
// The interrupted runs: CLI runs killed after their third commit (STAGECRAFT_FAULT), whose model script
// was away while the app started (so the app's own resume at its start failed, leaving them interrupted).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import type { CliResult } from './testing/spawn-cli';
import { besideApp, interruptedRuns, refusedThroughApp, sameOutput as same } from './testing/beside-app';

const beside = besideApp('sc-resume-app-');
const { app, cli, call, note: said } = beside;
const dir = mkdtempSync(path.join(tmpdir(), 'sc-resume-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('stagecraft resume while the app holds the embedded store', () => {
  /** the model script of the runs (interruptedRuns) */
  const model = path.join(dir, 'probe-model.yaml');
  /** resumed through the app (a), on the store (b), aborted in the app (c) */
  let a: string, b: string, c: string;
  let note: string;
  const viaApp: Record<string, CliResult> = {};
  const commands = (): Record<string, string[]> => ({
    again: ['resume', a],
    againJson: ['resume', a, '--json'],
    aborted: ['resume', c, '--json'],
    abortedText: ['resume', c],
    missing: ['resume', 'run_nope', '--json'],
  });
  before(async () => {
    [a, b, c] = await interruptedRuns(beside, dir, 3);
    note = said();
    await call(routes.abortRun, { params: { id: c }, body: { reason: 'not this one' } });
  });

  it('resume RUN goes through the app: resumed there, followed to its end, said once on stderr', async () => {
    const r = await cli(['resume', a]);
    viaApp.resumed = r;
    assert.equal(r.code, 0, r.out + r.err);
    assert.ok(r.err.startsWith(`${note}\n`), r.err);
    assert.equal(r.out.split('\n')[0], `run ${a}: completed`);
    assert.equal((await call(routes.getRun, { params: { id: a } })).status, 'completed', 'resumed in the app');
    for (const [name, args] of Object.entries(commands())) {
      viaApp[name] = await cli(args);
      assert.ok(viaApp[name].err.startsWith(`${note}\n`), `${name}: ${viaApp[name].err}`);
    }
    assert.equal(viaApp.againJson.code, 0);
    assert.equal((JSON.parse(viaApp.againJson.out) as { status: string }).status, 'completed');
    assert.equal(viaApp.aborted.code, 1);
    assert.equal((JSON.parse(viaApp.aborted.out) as { error: { code: string } }).error.code, 'run_not_resumable');
    assert.equal(viaApp.missing.code, 1);
    assert.equal((JSON.parse(viaApp.missing.out) as { error: { code: string } }).error.code, 'run_not_found');
  });

  it('a run the app drives already: superseded, as a resume on the store says of a run another process holds', async () => {
    // a run whose postprocessor step sleeps: still running, driven by the app, when the CLI asks
    await call(routes.createSkill, { body: { name: 'sleeper', from: 'blog_writer' } });
    const files = (await call(routes.getSkill, { params: { name: 'sleeper' } })).version!.files;
    const rendering = `${files['rendering.py']}\n\ndef count_words(value):\n    import time\n    time.sleep(120)\n    return {"word_count": 1, "reading_minutes": 1}\n`;
    await call(routes.saveVersion, { params: { name: 'sleeper' }, body: { files: { ...files, 'rendering.py': rendering } } });
    const driven = (await call(routes.startRun, { body: { skill: 'sleeper', input: JSON.parse(files['input.json']) as Record<string, string> } })).runId;
    for (let i = 0; i < 600 && (await call(routes.getRun, { params: { id: driven } })).status !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    try {
      const text = await cli(['resume', driven]);
      assert.equal(text.code, 0, text.err);
      assert.equal(text.out, `run ${driven}: another process is resuming it; nothing to do here\n`);
      const json = await cli(['resume', driven, '--json']);
      assert.equal(json.code, 0, json.err);
      const s = JSON.parse(json.out) as Record<string, unknown>;
      assert.deepEqual(Object.keys(s), ['runId', 'status', 'output', 'error', 'report', 'traces', 'steps']);
      assert.deepEqual([s.status, s.output, s.error, s.report], ['superseded', null, null, null]);
    } finally {
      await call(routes.abortRun, { params: { id: driven }, body: { reason: 'done with it' } });
    }
  });

  it('resume of every run and resume RUN --model cannot go through the app: store_locked, saying why', async () => {
    await refusedThroughApp(cli, 'resume', [
      [[], /the app resumes every interrupted run itself when it starts/],
      [[b, '--model', `scripted:${model}`], /--model: the app resumes a run with the model it ran with/],
    ]);
  });

  it('once the app has stopped, the same resumes print the same on the store itself', async () => {
    await app().stop();
    const r = await cli(['resume', b]);
    assert.equal(r.code, viaApp.resumed.code, r.err);
    assert.equal(same(r.out), same(viaApp.resumed.out), 'an interrupted run resumed');
    for (const [name, args] of Object.entries(commands())) {
      const direct = await cli(args);
      assert.equal(direct.code, viaApp[name].code, `${name}: ${direct.err}`);
      assert.equal(same(direct.out), same(viaApp[name].out), name);
    }
  });
});
