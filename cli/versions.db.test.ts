// `stagecraft versions SKILL`: a skill's versions, newest first, so a --version hash is found without the
// app — on Postgres (DATABASE_URL) and on the embedded store, as `pull` reaches them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, ROOT } from './testing/spawn-cli';
import { createTestDatabase, type TestDatabase } from '../lib/store/testing/pg-test-db';
import { SkillVersionsView } from '../lib/views';

const root = mkdtempSync(path.join(tmpdir(), 'sc-versions-'));
let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
  rmSync(root, { recursive: true, force: true });
});

function embeddedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data') };
  delete env.DATABASE_URL;
  return env;
}

for (const store of ['postgres', 'embedded'] as const) {
  test(`lists a skill's pushed versions newest first, the latest marked, and refuses an unknown skill (${store})`, async () => {
    const env = store === 'postgres' ? { ...process.env, DATABASE_URL: db.url } : embeddedEnv();
    const cli = (...argv: string[]) => runCli(argv, { env });
    const unknown = await cli('versions', 'nosuch');
    assert.equal(unknown.code, 2, unknown.out + unknown.err);
    assert.match(unknown.err, /^stagecraft: No skill named "nosuch"\. Check the name/m);
    assert.equal(JSON.parse((await cli('versions', 'nosuch', '--json')).out).error.code, 'skill_not_found');

    const dir = path.join(root, `${store} copy`, 'summarize');
    cpSync(path.join(ROOT, 'examples/summarize'), dir, { recursive: true });
    const first = await cli('push', dir, '--json');
    assert.equal(first.code, 0, first.err);
    appendFileSync(path.join(dir, 'report.txt'), 'one more line\n');
    const second = await cli('push', dir, '--json');
    const [older, newer] = [JSON.parse(first.out).version.hash as string, JSON.parse(second.out).version.hash as string];
    assert.notEqual(older, newer);

    const json = await cli('versions', 'summarize', '--json');
    assert.equal(json.code, 0, json.err);
    const view = SkillVersionsView.parse(JSON.parse(json.out));
    assert.equal(view.skill, 'summarize');
    assert.equal(view.latest, newer);
    assert.deepEqual(view.versions.map((v) => [v.hash, v.isLatest, v.origin]), [[newer, true, 'push'], [older, false, 'push']]);
    assert.ok(view.versions.every((v) => v.fileCount === 5 && v.createdAt > 0 && typeof v.description === 'string'));

    const text = await cli('versions', 'summarize');
    assert.equal(text.code, 0, text.err);
    const lines = text.out.trimEnd().split('\n');
    assert.equal(lines.length, 2, 'one line per version on stdout');
    assert.match(lines[0], new RegExp(`^${newer.slice(0, 12)}  \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  latest  push    5 `));
    assert.match(lines[1], new RegExp(`^${older.slice(0, 12)}  \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z          push    5 `));
    assert.match(text.err, /^VERSION +CREATED +LATEST +ORIGIN +FILES +DESCRIPTION$/m);
    // the hash as listed is one --version takes
    const pulled = await cli('pull', 'summarize', path.join(root, `${store} pulled`), '--version', lines[1].split(' ')[0]);
    assert.equal(pulled.code, 0, pulled.err);
    assert.match(pulled.out, new RegExp(`wrote version ${older.slice(0, 12)}`));
  });
}

test('versions is in --help, has its own --help, and takes one skill name', async () => {
  const help = await runCli(['--help']);
  assert.match(help.out, /^ {2}stagecraft versions SKILL \[--json\] +a skill's versions, newest first/m);
  const own = await runCli(['versions', '--help']);
  assert.equal(own.code, 0);
  assert.match(own.out, /^usage:\n {2}stagecraft versions SKILL \[--json\] .*\n {44}takes, and which is the latest\n/);
  const none = await runCli(['versions'], { env: embeddedEnv() });
  assert.equal(none.code, 2);
  assert.match(none.err, /expected one skill name, got nothing/);
});
