// `stagecraft abort RUN --json` beside the running app (`npm start` in one terminal): the app holds the
// embedded store and the abort goes through its API, printing what the same abort prints on the store
// once the app has stopped — the same keys in the same order (the report's summary last), the same
// values but the run's id: who asked too (the CLI's user, via cli, not the app). The runs: two interrupted alike (CLI runs killed after their third commit,
// STAGECRAFT_FAULT, whose model script was away while the app started, so its own resume failed), one
// aborted through the app, the other on the store.
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, runCli } from './testing/spawn-cli';
import { besideApp } from './testing/beside-app';

const { start, app, env, cli, note: said } = besideApp('sc-abort-app-');
const dir = mkdtempSync(path.join(tmpdir(), 'sc-abort-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** what differs from one abort to the next: the run's id, how long steps took */
const same = (out: string) => out.replace(/\brun_[a-z0-9]+/g, 'RUN').replace(/"durationMs":\d+/g, '"durationMs":0');

describe('stagecraft abort --json while the app holds the embedded store', () => {
  const bundle = path.join(dir, 'probe');
  const model = path.join(dir, 'probe-model.yaml');
  let a: string, b: string;
  before(async () => {
    cpSync(path.join(ROOT, 'lib', 'server', 'crash', 'fixture'), bundle, { recursive: true });
    copyFileSync(path.join(bundle, 'model.yaml'), model);
    for (let i = 0; i < 2; i++) {
      const crashed = await runCli(['run', bundle, '--model', `scripted:${model}`, '--json'], { env: { ...env(), STAGECRAFT_FAULT: 'after-commit:3' } });
      assert.notEqual(crashed.code, 0, 'the run was killed');
    }
    const listed = await cli(['runs', '--status', 'running', '--json']);
    [a, b] = (JSON.parse(listed.out) as { runs: { runId: string }[] }).runs.map((r) => r.runId);
    assert.ok(a && b, listed.out + listed.err);
    // the app's own resume at its start fails without the model script: the runs stay interrupted
    renameSync(model, `${model}.away`);
    await start();
    for (let i = 0; i < 600 && ![a, b].every((id) => app().output().includes(`resumed ${id}: not resumed`)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok([a, b].every((id) => app().output().includes(`resumed ${id}: not resumed`)), app().output());
    renameSync(`${model}.away`, model);
  });

  it('prints, through the app, the JSON the store prints: keys, their order and values alike', async () => {
    const viaApp = await cli(['abort', a, '--reason', 'enough', '--json']);
    assert.equal(viaApp.code, 0, viaApp.err);
    assert.equal(viaApp.err.trim(), said(), 'through the app, said once on stderr');
    await app().stop();
    const onStore = await cli(['abort', b, '--reason', 'enough', '--json']);
    assert.equal(onStore.code, 0, onStore.err);
    assert.doesNotMatch(onStore.err, /through the app/);
    const report = (JSON.parse(onStore.out) as { status: string; report: Record<string, unknown> }).report;
    assert.equal((JSON.parse(onStore.out) as { status: string }).status, 'aborted');
    assert.equal(Object.keys(report).at(-1), 'summary', 'the store prints the summary last');
    assert.equal(same(viaApp.out), same(onStore.out));
  });
});
