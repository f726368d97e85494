// `stagecraft push DIR` beside the running app (`npm start` in one terminal): the app holds the embedded
// store, and the folder — read and checked here as on the store — is saved by the app as push saves it
// (POST /api/skills/<name>/versions with `push: true`: a skill made when there is none, origin push),
// printing what the same push prints on the store once the app has stopped (stdout byte for byte, the
// findings on stderr, exit codes alike).
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import { ROOT, type CliResult } from './testing/spawn-cli';
import { besideApp } from './testing/beside-app';

const { dataDir, start, app, cli, call, note: said } = besideApp('sc-push-app-');
const fresh = path.join(dataDir, 'fresh');
const broken = path.join(dataDir, 'broken');

describe('stagecraft push while the app holds the embedded store', () => {
  let note: string;
  const viaApp: Record<string, CliResult> = {};
  /** each push by a name, with the skill it makes new (another one on the store, so that it is new there too) */
  const commands = (side: 'app' | 'store'): Record<string, string[]> => ({
    unchanged: ['push', 'examples/summarize'],
    unchangedJson: ['push', 'examples/summarize/skill.md', '--json'],
    fresh: ['push', fresh, '--name', `fresh_${side}`],
    freshJson: ['push', fresh, '--name', `json_${side}`, '--json'],
    broken: ['push', broken, '--name', `broken_${side}`],
    badName: ['push', fresh, '--name', 'Not A Name', '--json'],
    missing: ['push', path.join(dataDir, 'nothing'), '--json'],
  });
  /** the side's skill name, and when the version was saved (a push saves it again) */
  const same = (s: string) => s.replace(/\b(fresh|json|broken)_(app|store)\b/g, '$1_SIDE').replace(/"(savedAt|createdAt)":\d+/g, '"$1":0');
  before(async () => {
    cpSync(path.join(ROOT, 'examples/summarize'), fresh, { recursive: true });
    writeFileSync(path.join(fresh, 'notes.txt'), 'pushed from a second terminal\n');
    cpSync(path.join(ROOT, 'examples/summarize'), broken, { recursive: true });
    const md = path.join(broken, 'skill.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace(/^name: .*$/m, '$&\nnot_a_field: 1'));
    await start();
    note = said();
  });

  it('goes through the app, said once on stderr; saved as push saves it', async () => {
    for (const [name, args] of Object.entries(commands('app'))) {
      viaApp[name] = await cli(args);
      assert.ok(viaApp[name].err.startsWith(`${note}\n`) || name === 'missing', `${name}: ${viaApp[name].err}`);
    }
    assert.match(viaApp.unchanged.out, /^summarize: unchanged, version \w{12} \(5 files\)\n$/);
    assert.match(viaApp.fresh.out, /^fresh_app: saved as version \w{12} \(6 files\)\n$/);
    const versions = await call(routes.listVersions, { params: { name: 'fresh_app' } });
    assert.deepEqual(versions.versions.map((v) => v.origin), ['push'], 'a new skill, its version pushed');
    assert.equal(viaApp.badName.code, 2);
  });

  it('once the app has stopped, the same pushes print the same on the store itself', async () => {
    await app().stop();
    for (const [name, args] of Object.entries(commands('store'))) {
      const r = await cli(args);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      assert.equal(same(r.out), same(viaApp[name].out), name);
      assert.equal(same(r.err), same(viaApp[name].err.replace(`${note}\n`, '')), `${name}: stderr`);
    }
  });
});
