// `stagecraft pull NAME [DIR] [--version HASH]` beside the running app (`npm start` in one terminal):
// the app holds the embedded store, and the version is the app's answer (GET /api/skills/<name>, or
// /versions/<hash>), written out here as pull writes it — stdout byte for byte and the exit code as the
// same pull prints on the store once the app has stopped, the folder's files the version's, a folder's
// other files left and said on stderr, a skill or a hash that names none said in the CLI's words; a
// file edited and in no saved version refused (exit 1, nothing written), one another version holds
// (read through the app) replaced.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import type { CliResult } from './testing/spawn-cli';
import { besideApp } from './testing/beside-app';

const { dataDir, start, app, cli, call, note: said } = besideApp('sc-pull-app-');

describe('stagecraft pull while the app holds the embedded store', () => {
  let first: string;
  let files: Record<string, string>;
  let firstFiles: Record<string, string>;
  let note: string;
  const into = (name: string) => path.join(dataDir, 'pulled', name);
  const viaApp: Record<string, CliResult> = {};
  const commands = (): Record<string, string[]> => ({
    latest: ['pull', 'summarize', into('latest')],
    latestJson: ['pull', 'summarize', into('latest-json'), '--json'],
    version: ['pull', 'summarize', into('version'), '--version', first.slice(0, 12)],
    extra: ['pull', 'summarize', into('extra')],
    noSkill: ['pull', 'nosuchskill', into('none'), '--json'],
    noVersion: ['pull', 'summarize', into('none'), '--version', 'abcdef123456', '--json'],
    noVersionText: ['pull', 'summarize', into('none'), '--version', 'abcdef123456'],
    unsaved: ['pull', 'summarize', into('unsaved')],
    unsavedJson: ['pull', 'summarize', into('unsaved'), '--json'],
    saved: ['pull', 'summarize', into('saved')],
  });
  /**
   * the folders as each command finds them: new, but `extra`, which holds a file of its own, `unsaved`,
   * whose skill.md is edited, and `saved`, which holds the first version's sanitize.py
   */
  const lay = () => {
    rmSync(path.join(dataDir, 'pulled'), { recursive: true, force: true });
    mkdirSync(into('extra'), { recursive: true });
    writeFileSync(path.join(into('extra'), 'notes.md'), 'mine\n');
    mkdirSync(into('unsaved'), { recursive: true });
    writeFileSync(path.join(into('unsaved'), 'skill.md'), 'mine, not pushed\n');
    mkdirSync(into('saved'), { recursive: true });
    writeFileSync(path.join(into('saved'), 'sanitize.py'), firstFiles['sanitize.py']);
  };
  before(async () => {
    await start();
    note = said();
    const v = (await call(routes.getSkill, { params: { name: 'summarize' } })).version!;
    first = v.hash;
    firstFiles = v.files;
    files = { ...v.files, 'sanitize.py': v.files['sanitize.py'].replace('"[email]"', '"[mail]"') };
    // a second version, the latest: a pull without --version writes it, one with the first hash the first
    await call(routes.saveVersion, { params: { name: 'summarize' }, body: { files } });
  });

  it('goes through the app, said once on stderr; the folder holds the version', async () => {
    lay();
    for (const [name, args] of Object.entries(commands())) {
      viaApp[name] = await cli(args);
      assert.ok(viaApp[name].err.startsWith(`${note}\n`), `${name}: ${viaApp[name].err}`);
    }
    assert.equal(viaApp.latest.code, 0, viaApp.latest.err);
    assert.match(viaApp.latest.out, /^summarize: wrote version \w+ \(\d+ files\) to /);
    for (const [file, text] of Object.entries(files)) assert.equal(readFileSync(path.join(into('latest'), file), 'utf8'), text, file);
    assert.equal(readFileSync(path.join(into('version'), 'sanitize.py'), 'utf8').includes('"[email]"'), true, '--version: the first version');
    assert.match(viaApp.extra.err, /also holds notes\.md, not in this version/);
    assert.equal(viaApp.noSkill.code, 2, "a name that names none: the caller's input");
    assert.equal((JSON.parse(viaApp.noSkill.out) as { error: { code: string } }).error.code, 'skill_not_found');
    assert.equal(viaApp.noVersion.code, 2);
    assert.match((JSON.parse(viaApp.noVersion.out) as { error: { message: string } }).error.message, /stagecraft versions summarize/, "in the CLI's words");
    assert.equal(viaApp.unsaved.code, 1, viaApp.unsaved.err);
    assert.match(viaApp.unsaved.err, /skill\.md in \S+ holds changes in no saved version of summarize: .* --force to replace them\.\n$/s);
    assert.equal(readFileSync(path.join(into('unsaved'), 'skill.md'), 'utf8'), 'mine, not pushed\n', 'nothing written');
    assert.equal((JSON.parse(viaApp.unsavedJson.out) as { error: { code: string } }).error.code, 'unsaved_changes');
    assert.equal(viaApp.saved.code, 0, `the first version holds its sanitize.py: ${viaApp.saved.err}`);
    assert.equal(readFileSync(path.join(into('saved'), 'sanitize.py'), 'utf8'), files['sanitize.py']);
  });

  it('once the app has stopped, the same pulls print the same on the store itself', async () => {
    await app().stop();
    lay();
    for (const [name, args] of Object.entries(commands())) {
      const r = await cli(args);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      assert.equal(r.out, viaApp[name].out, name);
      assert.equal(r.err, viaApp[name].err.slice(note.length + 1), `${name}: stderr`);
    }
  });
});
