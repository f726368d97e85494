// `stagecraft abort RUN --json` beside the running app (`npm start` in one terminal): the app holds the
// embedded store and the abort goes through its API, printing what the same abort prints on the store
// once the app has stopped — the same keys in the same order (the report's summary last), the same
// values but the run's id: who asked too (the CLI's user, via cli, not the app). The runs: two interrupted alike (CLI runs killed after their third commit,
// STAGECRAFT_FAULT, whose model script was away while the app started, so its own resume failed), one
// aborted through the app, the other on the store.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { besideApp, interruptedRuns, sameOutput as same } from './testing/beside-app';

const beside = besideApp('sc-abort-app-');
const { app, cli, note: said } = beside;
const dir = mkdtempSync(path.join(tmpdir(), 'sc-abort-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('stagecraft abort --json while the app holds the embedded store', () => {
  let a: string, b: string;
  before(async () => {
    [a, b] = await interruptedRuns(beside, dir, 2);
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
