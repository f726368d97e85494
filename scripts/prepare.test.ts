// The machine preparation `npm test` starts with (scripts/prepare.mjs), with the system faked: stub
// apt-get, pg_isready, pg_lsclusters and pg_ctlcluster on PATH record what they were asked, and a
// stub Chromium file stands where CHROMIUM_PATH says. Each case checks what ran and what was said.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');

type Machine = { bin: string; log: string; chromium: string; dir: string };

function machine(opts: { chromium?: boolean; bwrap?: boolean; python?: boolean; pgRunning?: boolean }): Machine {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prepare-'));
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'calls.log');
  const chromium = path.join(dir, 'chromium');
  const up = path.join(dir, 'pg-up');
  spawnSync('mkdir', ['-p', bin]);
  writeFileSync(log, '');
  const stub = (name: string, body: string) => {
    writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  };
  // stubs see only this folder on PATH, so they name the real tools they use by path;
  // apt-get "installs" by making the files the checks look for
  stub(
    'apt-get',
    `[ "$1" = install ] || exit 0
for p in "$@"; do
  case "$p" in
    chromium) /usr/bin/touch '${chromium}' ;;
    chromium-headless-shell) /usr/bin/touch '${dir}/headless-shell' ;;
    bubblewrap) printf '#!/bin/sh\\n' > '${bin}/bwrap'; /bin/chmod +x '${bin}/bwrap' ;;
    python3) printf '#!/bin/sh\\n' > '${bin}/python3'; /bin/chmod +x '${bin}/python3' ;;
  esac
done`,
  );
  stub('pg_isready', `[ -f '${up}' ] && exit 0; exit 2`);
  stub('pg_lsclusters', `echo "15 main 5432 $([ -f '${up}' ] && echo online || echo down) postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log"`);
  stub('pg_ctlcluster', `/usr/bin/touch '${up}'`);
  if (opts.bwrap !== false) stub('bwrap', '');
  if (opts.python !== false) stub('python3', '');
  if (opts.chromium !== false) writeFileSync(chromium, '');
  if (opts.pgRunning !== false) writeFileSync(up, '');
  writeFileSync(log, ''); // the set-up's own writes are not calls
  return { bin, log, chromium, dir };
}

function prepare(m: Machine, extra: Record<string, string> = {}, script = 'scripts/prepare.mjs', args: string[] = []) {
  writeFileSync(m.log, '');
  const r = spawnSync(process.execPath, [script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { NODE_ENV: 'test', PATH: m.bin, CHROMIUM_PATH: m.chromium, STAGECRAFT_PREPARE_UID: '0', STAGECRAFT_PREPARE_PG_WAIT_MS: '3000', ...extra },
  });
  const calls = readFileSync(m.log, 'utf8').split('\n').filter(Boolean);
  return { status: r.status, out: r.stdout + r.stderr, calls };
}

test('nothing missing: nothing is installed or started, and each part is named once', (t) => {
  const m = machine({});
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m);
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.calls.filter((c) => !c.startsWith('pg_isready')), []);
  assert.match(r.out, new RegExp(`prepare: Chromium \\(browser tests\\): ${m.chromium}`));
  assert.match(r.out, /prepare: bubblewrap \(the sandbox\): .*\/bwrap/);
  assert.match(r.out, /prepare: python3 \(code steps\): .*\/python3/);
  assert.match(r.out, /prepare: Postgres at 127\.0\.0\.1:5432: accepting connections/);
  assert.match(r.out, /prepare: ready in \d+ ms/);
  assert.doesNotMatch(r.out, /apt-get|installing/);
});

test('Chromium missing, as root: apt-get installs exactly it, then the tests may run', (t) => {
  const m = machine({ chromium: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m);
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.calls.filter((c) => c.startsWith('apt-get')), ['apt-get install -y -q chromium']);
  assert.ok(existsSync(m.chromium));
  assert.match(r.out, /prepare: installing chromium \(apt-get\)/);
  assert.match(r.out, /prepare: installed chromium/);
  // and a second time nothing is installed twice
  const again = prepare(m);
  assert.equal(again.status, 0);
  assert.deepEqual(again.calls.filter((c) => c.startsWith('apt-get')), []);
});

test('a package apt-get cannot find at first: the lists are updated, then it installs', (t) => {
  const m = machine({ bwrap: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  // the first install fails as on a fresh image with empty package lists
  const flag = path.join(m.dir, 'updated');
  writeFileSync(
    path.join(m.bin, 'apt-get'),
    `#!/bin/sh\necho "apt-get $*" >> '${m.log}'\n[ "$1" = update ] && /usr/bin/touch '${flag}' && exit 0\n[ -f '${flag}' ] || exit 100\nprintf '#!/bin/sh\\n' > '${m.bin}/bwrap'; /bin/chmod +x '${m.bin}/bwrap'\n`,
  );
  const r = prepare(m);
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.calls.filter((c) => c.startsWith('apt-get')), ['apt-get install -y -q bubblewrap', 'apt-get update -q', 'apt-get install -y -q bubblewrap']);
});

test('Postgres installed but stopped, as root: its cluster is started and waited for', (t) => {
  const m = machine({ pgRunning: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m);
  assert.equal(r.status, 0, r.out);
  assert.ok(r.calls.includes('pg_ctlcluster --skip-systemctl-redirect 15 main start'), r.calls.join('\n'));
  assert.deepEqual(r.calls.filter((c) => c.startsWith('apt-get')), []);
  assert.match(r.out, /prepare: started Postgres 15\/main: accepting connections at 127\.0\.0\.1:5432/);
});

test('Postgres that does not come up: a clear failure naming where to look', (t) => {
  const m = machine({ pgRunning: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  writeFileSync(path.join(m.bin, 'pg_ctlcluster'), `#!/bin/sh\necho "pg_ctlcluster $*" >> '${m.log}'\n`);
  const r = prepare(m, { STAGECRAFT_PREPARE_PG_WAIT_MS: '300' });
  assert.equal(r.status, 1);
  assert.match(r.out, /still not answering; look at \/var\/log\/postgresql/);
});

test('not root and a package missing: the one line to run, with sudo, and nothing else happens', (t) => {
  const m = machine({ bwrap: false, chromium: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m, { STAGECRAFT_PREPARE_UID: '1000' });
  assert.equal(r.status, 1);
  assert.deepEqual(r.calls.filter((c) => !c.startsWith('pg_isready')), []);
  assert.match(r.out, /sudo sh -c 'apt-get update && apt-get install -y chromium bubblewrap'/);
  assert.match(r.out, /nothing was tested/);
});

test('not root and Postgres stopped: the sudo line to start it', (t) => {
  const m = machine({ pgRunning: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m, { STAGECRAFT_PREPARE_UID: '1000' });
  assert.equal(r.status, 1);
  assert.ok(!r.calls.some((c) => c.startsWith('pg_ctlcluster')));
  assert.match(r.out, /sudo pg_ctlcluster --skip-systemctl-redirect 15 main start/);
});

test('DATABASE_URL elsewhere: no local Postgres is needed, and that server is the one checked', (t) => {
  const m = machine({ pgRunning: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  rmSync(path.join(m.bin, 'pg_ctlcluster'));
  rmSync(path.join(m.bin, 'pg_lsclusters'));
  const r = prepare(m, { DATABASE_URL: 'postgresql://u@db.internal:6543/x' });
  assert.equal(r.status, 1);
  assert.ok(r.calls.includes('pg_isready -h db.internal -p 6543 -q'), r.calls.join('\n'));
  assert.doesNotMatch(r.out, /installing/);
  assert.match(r.out, /db\.internal:6543 \(DATABASE_URL\) is not answering/);
});

test('npm test stops before testing anything when preparing fails', (t) => {
  const m = machine({ bwrap: false });
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m, { STAGECRAFT_PREPARE_UID: '1000' }, 'scripts/test.mjs', ['scripts/prepare.test.ts']);
  assert.equal(r.status, 1);
  assert.match(r.out, /nothing was tested/);
  assert.doesNotMatch(r.out, /# tests|# pass/);
});

// the headless shell the browser tests drive when it is there (scripts/browser-path.mjs): wanted, never needed
test('the headless shell missing, as root: apt-get installs it; where apt-get cannot, the tests go on with Chromium', (t) => {
  const m = machine({});
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const shell = path.join(m.dir, 'headless-shell');
  const r = prepare(m, { CHROMIUM_HEADLESS_SHELL_PATH: shell });
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.calls.filter((c) => c.startsWith('apt-get')), ['apt-get install -y -q chromium-headless-shell']);
  assert.ok(existsSync(shell));
  assert.match(r.out, /prepare: installed chromium-headless-shell/);

  // a Debian without the package: bubblewrap, needed, is still installed, and the tests run
  rmSync(shell);
  rmSync(path.join(m.bin, 'bwrap'));
  writeFileSync(path.join(m.bin, 'apt-get'), `#!/bin/sh\necho "apt-get $*" >> '${m.log}'\nfor p in "$@"; do [ "$p" = chromium-headless-shell ] && exit 100; done\n[ "$1" = install ] && printf '#!/bin/sh\\n' > '${m.bin}/bwrap' && /bin/chmod +x '${m.bin}/bwrap'\nexit 0\n`);
  const without = prepare(m, { CHROMIUM_HEADLESS_SHELL_PATH: shell });
  assert.equal(without.status, 0, without.out);
  assert.deepEqual(without.calls.filter((c) => c.startsWith('apt-get')), [
    'apt-get install -y -q bubblewrap chromium-headless-shell',
    'apt-get update -q',
    'apt-get install -y -q bubblewrap chromium-headless-shell',
    'apt-get install -y -q bubblewrap',
  ]);
  assert.match(without.out, /prepare: apt-get could not install chromium-headless-shell: the browser tests drive Chromium; installed bubblewrap/);
  assert.match(without.out, /prepare: ready in/);
});

test('the headless shell missing, not root: said, with the line that installs it, and the tests go on', (t) => {
  const m = machine({});
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const shell = path.join(m.dir, 'headless-shell');
  const r = prepare(m, { CHROMIUM_HEADLESS_SHELL_PATH: shell, STAGECRAFT_PREPARE_UID: '1000' });
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.calls.filter((c) => c.startsWith('apt-get')), []);
  assert.match(r.out, new RegExp(`prepare: no ${shell}: the browser tests drive Chromium.*apt-get install -y chromium-headless-shell`));
});

test('CHROMIUM_PATH alone names the browser: no headless shell is looked for', (t) => {
  const m = machine({});
  t.after(() => rmSync(m.dir, { recursive: true, force: true }));
  const r = prepare(m);
  assert.equal(r.status, 0, r.out);
  assert.doesNotMatch(r.out, /headless/);
});
