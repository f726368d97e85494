#!/usr/bin/env node
// `npm test` starts here: it makes sure the machine has what the tests need before anything runs,
// the way a fresh machine of this project's kind (Node and a Postgres server installed, no Chromium,
// no bubblewrap) needs it:
//   - Debian packages: chromium (browser tests), bubblewrap (the sandbox suite), python3 (code
//     steps), and postgresql when no server is installed and no DATABASE_URL names one elsewhere.
//     As root they are installed with apt-get; otherwise this prints the one line to run (with
//     sudo) and exits non-zero before any test runs. chromium-headless-shell, which the browser
//     tests drive when it is there (scripts/browser-path.mjs: a quarter less CPU), is installed with
//     them as root; without it (not root, or apt-get could not) they drive chromium, as said.
//   - Postgres: started with pg_ctlcluster when it is installed but not running, then waited for.
//     DATABASE_URL, when set, is the server the tests use; otherwise 127.0.0.1:5432.
// One line per thing, saying what it found or did. When everything is there it runs no installer
// and takes well under a second (the checks are file lookups and one pg_isready).
//
// Exported for scripts/test.mjs; `node scripts/prepare.mjs` runs it alone. The tests fake the
// system parts by putting stub apt-get / pg_isready / pg_ctlcluster on PATH (prepare.test.ts);
// STAGECRAFT_PREPARE_UID stands in for the user id there, and nowhere else.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM, headlessShellWanted } from './browser-path.mjs';

const PG_WAIT_MS = 30_000;

/** Where `cmd` is on PATH, or null. */
function which(cmd, env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** The Postgres server the tests will use: host and port, and whether it is this machine's. */
export function testServer(env) {
  const raw = env.DATABASE_URL || env.STAGECRAFT_TEST_PG_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
  let host = '127.0.0.1';
  let port = '5432';
  try {
    const u = new URL(raw);
    host = u.hostname.replace(/^\[|\]$/g, '') || host;
    port = u.port || port;
  } catch {
    /* an unparsable URL fails in the tests with its own message */
  }
  const isLocal = ['127.0.0.1', 'localhost', '::1'].includes(host);
  return { url: raw, host, port, isLocal };
}

/** The clusters pg_lsclusters knows, those on `port` first. */
function clusters(env, port) {
  if (!which('pg_lsclusters', env)) return [];
  const r = spawnSync('pg_lsclusters', ['-h'], { env, encoding: 'utf8' });
  const all = (r.stdout ?? '')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 3 && /^\d/.test(f[0]))
    .map(([version, name, p]) => ({ version, name, port: p }));
  const onPort = all.filter((c) => c.port === port);
  return onPort.length ? onPort : all;
}

/**
 * Check and prepare. Returns 0 when the tests can run, else non-zero (after saying why).
 * `log` gets one line per thing.
 */
export function prepare({ env = process.env, log = (l) => console.log(l) } = {}) {
  const started = Date.now();
  const uid = env.STAGECRAFT_PREPARE_UID !== undefined ? Number(env.STAGECRAFT_PREPARE_UID) : process.getuid?.() ?? 0;
  const isRoot = uid === 0;
  const server = testServer(env);
  const run = (cmd, args) => spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

  const chromium = env.CHROMIUM_PATH || CHROMIUM;
  const pgInstalled = which('pg_ctlcluster', env) !== null || which('postgres', env) !== null;
  const needs = [
    { pkg: 'chromium', what: 'Chromium (browser tests)', found: existsSync(chromium) ? chromium : null },
    { pkg: 'bubblewrap', what: 'bubblewrap (the sandbox)', found: which('bwrap', env) },
    { pkg: 'python3', what: 'python3 (code steps)', found: which('python3', env) },
  ];
  if (server.isLocal) needs.push({ pkg: 'postgresql', what: 'a Postgres server', found: pgInstalled ? 'installed' : null });
  // wanted, not needed: the browser tests drive chromium without it
  const shell = headlessShellWanted(env);
  const shellNeed = shell && { pkg: 'chromium-headless-shell', what: 'Chromium\'s headless shell (browser tests, lighter)', found: existsSync(shell) ? shell : null, optional: true };
  if (shellNeed && !shellNeed.found && !isRoot) log(`prepare: no ${shell}: the browser tests drive Chromium, with about a third more CPU (sudo apt-get install -y chromium-headless-shell for the lighter one)`);
  if (shellNeed && (shellNeed.found || isRoot)) needs.push(shellNeed);

  const missing = needs.filter((n) => !n.found);
  for (const n of needs.filter((x) => x.found)) log(`prepare: ${n.what}: ${n.found}`);
  if (missing.length) {
    const pkgs = missing.map((m) => m.pkg);
    const line = `apt-get update && apt-get install -y ${pkgs.join(' ')}`;
    if (!isRoot) {
      log(`prepare: missing ${missing.map((m) => m.what).join(', ')}; install with:`);
      log(`  sudo sh -c '${line}'`);
      log('prepare: nothing was tested');
      return 1;
    }
    if (!which('apt-get', env)) {
      log(`prepare: missing ${pkgs.join(', ')} and there is no apt-get to install them; install them, then run npm test again`);
      return 1;
    }
    log(`prepare: installing ${pkgs.join(' ')} (apt-get)`);
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { env: aptEnv, stdio: ['ignore', 'inherit', 'inherit'] }).status;
    // update first only when a plain install cannot find the packages (a fresh image has empty lists)
    const install = (list) => apt(['install', '-y', '-q', ...list]) === 0 || (apt(['update', '-q']) === 0 && apt(['install', '-y', '-q', ...list]) === 0);
    if (!install(pkgs)) {
      // what is needed, without what is only wanted: a package this Debian does not have is no reason to test nothing
      const needed = missing.filter((m) => !m.optional).map((m) => m.pkg);
      if (needed.length === pkgs.length || (needed.length && !install(needed))) {
        log(`prepare: apt-get could not install ${pkgs.join(' ')}; run \`${line}\` and look at what it says`);
        return 1;
      }
      log(`prepare: apt-get could not install ${missing.filter((m) => m.optional).map((m) => m.pkg).join(' ')}: the browser tests drive Chromium${needed.length ? `; installed ${needed.join(' ')}` : ''}`);
    } else log(`prepare: installed ${pkgs.join(' ')}`);
  }

  const status = pgStatus(server, env, run);
  if (status === 'up') log(`prepare: Postgres at ${server.host}:${server.port}: accepting connections`);
  else if (!server.isLocal) {
    log(`prepare: Postgres at ${server.host}:${server.port} (DATABASE_URL) is not answering (${status}); start it, or unset DATABASE_URL to use 127.0.0.1:5432`);
    return 1;
  } else {
    const known = clusters(env, server.port);
    if (!which('pg_ctlcluster', env) || known.length === 0) {
      log(`prepare: Postgres at ${server.host}:${server.port} is not answering and no cluster is known to pg_ctlcluster; start your server, or set DATABASE_URL`);
      return 1;
    }
    const cmds = known.map((c) => ['pg_ctlcluster', ['--skip-systemctl-redirect', c.version, c.name, 'start']]);
    if (!isRoot) {
      log(`prepare: Postgres at ${server.host}:${server.port} is not running; start it with:`);
      log(`  sudo ${cmds.map(([c, a]) => `${c} ${a.join(' ')}`).join(' && sudo ')}`);
      log('prepare: nothing was tested');
      return 1;
    }
    for (const [cmd, args] of cmds) {
      const r = run(cmd, args);
      // "already running" (exit 2) is fine: another cluster may be the one on this port
      if (r.status !== 0 && r.status !== 2) log(`prepare: ${cmd} ${args.join(' ')} said: ${(r.stderr || r.stdout).trim()}`);
    }
    const deadline = Date.now() + Number(env.STAGECRAFT_PREPARE_PG_WAIT_MS ?? PG_WAIT_MS);
    let now = pgStatus(server, env, run);
    while (now !== 'up' && Date.now() < deadline) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      now = pgStatus(server, env, run);
    }
    if (now !== 'up') {
      log(`prepare: started Postgres (${known.map((c) => `${c.version}/${c.name}`).join(', ')}) but ${server.host}:${server.port} is still not answering; look at /var/log/postgresql`);
      return 1;
    }
    log(`prepare: started Postgres ${known.map((c) => `${c.version}/${c.name}`).join(', ')}: accepting connections at ${server.host}:${server.port}`);
  }
  log(`prepare: ready in ${Date.now() - started} ms`);
  return 0;
}

function pgStatus(server, env, run) {
  if (!which('pg_isready', env)) return 'no pg_isready';
  const r = run('pg_isready', ['-h', server.host, '-p', server.port, '-q']);
  return r.status === 0 ? 'up' : `pg_isready exit ${r.status}`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(prepare());
