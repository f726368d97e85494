// A version never carries a version-control folder, on Postgres and on the embedded store: a
// `.git/config` with an `fsmonitor` command, saved through the API and written out by `pull`,
// would run at the user's next `git status`. Saving (the API, push) refuses such a path by name;
// pull refuses to write one a store still holds; push of a folder kept in git ignores its `.git`.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, type OpenedStore } from '../../store';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { main } from '../../../cli/main';
import { saveVersion } from './save-version';
import { pushSkill } from './push-skill';
import { pullSkill } from './pull-skill';

const SKILL = '---\nname: repo_skill\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\n---\nGo.\n';
const HOOK = '[core]\n\tfsmonitor = "touch /tmp/pwned-by-a-bundle"\n';

let database: TestDatabase;
let root: string;
before(async () => {
  database = await createTestDatabase();
  root = mkdtempSync(path.join(tmpdir(), 'sc-vcs-'));
});
after(async () => {
  await database?.drop();
  rmSync(root, { recursive: true, force: true });
});

for (const [label, open] of [
  ['Postgres', () => openStore({ databaseUrl: database.url })],
  ['the embedded store', () => openStore({ dataDir: path.join(root, 'db') })],
] as const) {
  describe(`version-control folders in bundles, on ${label}`, () => {
    let store: OpenedStore;
    before(async () => {
      store = await open();
    });
    after(async () => {
      await store?.close();
    });
    const host = () => ({ skills: store.skills });

    it('saving a version with .git/, .hg/ or .svn/ paths (any case, anywhere in the path) is refused, naming each path', async () => {
      for (const bad of ['.git/config', 'notes/.GIT/hooks/pre-commit', '.hg/hgrc', 'a/.svn/entries', '.git']) {
        await assert.rejects(saveVersion(host(), 'repo_skill', { files: { 'skill.md': SKILL, [bad]: HOOK }, createIfMissing: true }), (e: Error & { code?: string; problems?: { code: string; path: string }[] }) => {
          assert.equal(e.code, 'bundle_invalid');
          assert.deepEqual(e.problems?.map((p) => [p.code, p.path]), [['bundle_path_vcs', bad]]);
          assert.match(e.message, new RegExp(`${bad.replace(/\./g, '\\.')}.*version-control folder`));
          return true;
        });
      }
      assert.ok(!(await store.skills.skillNames()).includes('repo_skill'), 'nothing was saved');
    });

    it('push of a folder kept in git ignores its .git (and other VCS folders), as before', async () => {
      const dir = path.join(root, `pushed-${label.length}`);
      mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
      mkdirSync(path.join(dir, '.hg'), { recursive: true });
      writeFileSync(path.join(dir, 'skill.md'), SKILL.replace('repo_skill', `pushed_${label.length}`));
      writeFileSync(path.join(dir, '.git', 'config'), HOOK);
      writeFileSync(path.join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\ntouch /tmp/pwned\n');
      writeFileSync(path.join(dir, '.hg', 'hgrc'), '[hooks]\n');
      writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n');
      const saved = await pushSkill(host(), dir);
      const v = await store.skills.getVersion(saved.skill);
      assert.deepEqual(Object.keys(v.files).sort(), ['.gitignore', 'skill.md']);
    });

    it('pull refuses to write a version-control path a store still holds (saved before this check), writing nothing', async () => {
      // as a version saved by an older Stagecraft: straight into the store, past the server's checks
      await store.skills.saveVersion('legacy_skill', { 'skill.md': SKILL.replace('repo_skill', 'legacy_skill'), '.git/config': HOOK }, { mode: 'save', origin: 'app', description: '' });
      const into = path.join(root, `pulled-${label.length}`);
      await assert.rejects(pullSkill(host(), 'legacy_skill', { dir: into, cwd: root }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'bundle_invalid');
        assert.match(e.message, /"\.git\/config" is inside a version-control folder \(`\.git`\)/);
        return true;
      });
      assert.ok(!existsSync(path.join(into, '.git')), 'no .git was written');
      // the CLI says the same, with the path, and exits non-zero (on Postgres: the embedded store is this process's while open)
      if (label !== 'Postgres') return;
      const err: string[] = [];
      const prev = process.env.DATABASE_URL;
      process.env.DATABASE_URL = database.url;
      try {
        const code = await main(['pull', 'legacy_skill', into], { out: () => undefined, err: (s) => void err.push(s), stdin: async () => '' });
        assert.notEqual(code, 0);
        assert.match(err.join('\n'), /\.git\/config.*version-control folder/);
      } finally {
        if (prev === undefined) delete process.env.DATABASE_URL;
        else process.env.DATABASE_URL = prev;
      }
      assert.ok(!existsSync(path.join(into, '.git')));
    });
  });
}
