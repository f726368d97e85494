// `stagecraft regress SKILL [--version HASH] [--limit N]` beside the running app (`npm start` in one
// terminal): the app holds the embedded store, and the check is the app's (POST
// /api/skills/<name>/regress), printing what the same check prints on the store once the app has
// stopped — stdout and stderr byte for byte, exit codes the same (0 none would change, 1 some would).
// --trust and a --limit over the API's cap stay store_locked, saying why.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import type { CliResult } from './testing/spawn-cli';
import { besideApp, refusedThroughApp } from './testing/beside-app';

const { start, app, cli, call, note: said } = besideApp('sc-regress-app-');

describe('stagecraft regress while the app holds the embedded store', () => {
  let first: string;
  let note: string;
  const viaApp: Record<string, CliResult> = {};
  const commands = (): Record<string, string[]> => ({
    changed: ['regress', 'summarize'],
    changedJson: ['regress', 'summarize', '--limit', '5', '--json'],
    unchanged: ['regress', 'summarize', '--version', first.slice(0, 12)],
    unchangedJson: ['regress', 'summarize', '--version', first, '--json'],
    noSkill: ['regress', 'nosuchskill', '--json'],
    noVersion: ['regress', 'summarize', '--version', 'abcdef123456'],
  });
  before(async () => {
    await start();
    note = said();
    const v = (await call(routes.getSkill, { params: { name: 'summarize' } })).version!;
    first = v.hash;
    const done = (await call(routes.startRun, { body: { skill: 'summarize', input: { path: 'report.txt' } } })).runId;
    for (let i = 0; i < 600 && ['running', 'queued'].includes((await call(routes.getRun, { params: { id: done } })).status); i++) await new Promise((r) => setTimeout(r, 100));
    // the latest version redacts otherwise: its postprocessor would change the past run's output
    await call(routes.saveVersion, { params: { name: 'summarize' }, body: { files: { ...v.files, 'sanitize.py': v.files['sanitize.py'].replace('"[email]"', '"[mail]"') } } });
  });

  it('goes through the app, said once on stderr', async () => {
    for (const [name, args] of Object.entries(commands())) {
      viaApp[name] = await cli(args);
      assert.ok(viaApp[name].err.startsWith(`${note}\n`), `${name}: ${viaApp[name].err}`);
    }
    assert.equal(viaApp.changed.code, 1, 'a past run would change');
    assert.match(viaApp.changed.out, /^summarize: the postprocessor of version \w{12} over 1 past run: 1 would change\n/);
    assert.equal((JSON.parse(viaApp.changedJson.out) as { changed: unknown[] }).changed.length, 1);
    assert.equal(viaApp.unchanged.code, 0);
    assert.match(viaApp.unchanged.out, /: none would change\n$/);
    assert.equal((JSON.parse(viaApp.noSkill.out) as { error: { code: string } }).error.code, 'skill_not_found');
    assert.match(viaApp.noVersion.err, /stagecraft versions summarize/, "in the CLI's words");
  });

  it('--trust and a --limit over 500 cannot go through the app: store_locked, saying why', async () => {
    await refusedThroughApp(cli, 'regress', [
      [['summarize', '--trust'], /--trust is for code run here, and the app runs the check/],
      [['summarize', '--limit', '501'], /--limit 501: the app checks at most 500 past runs at once/],
    ]);
  });

  it('once the app has stopped, the same checks print the same on the store itself', async () => {
    await app().stop();
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      assert.equal(r.out, viaApp[name].out, name);
      assert.equal(r.err, viaApp[name].err.slice(note.length + 1), `${name}: stderr`);
    }
  });
});
