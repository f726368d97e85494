// The server's own check of its settings at start (start-settings.ts): STAGECRAFT_SANDBOX=required is
// probed there, so a server without a working bubblewrap stops with one line instead of serving on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SandboxUnavailableError, type isolationFor } from '../../sandbox/isolation';
import { startSettingsProblems } from './start-settings';

type Probe = typeof isolationFor;
const probing = (result: 'works' | 'fails') => {
  const asked: unknown[][] = [];
  const probe: Probe = (...args) => {
    asked.push(args);
    if (result === 'fails') throw new SandboxUnavailableError('bubblewrap (bwrap) is not installed');
    return { kind: 'bwrap', bwrap: '/usr/bin/bwrap', seccomp: null };
  };
  return { probe, asked };
};

test('STAGECRAFT_SANDBOX=required where bubblewrap cannot isolate: one problem, saying why and what to do', async () => {
  const { probe, asked } = probing('fails');
  const problems = await startSettingsProblems({ STAGECRAFT_SANDBOX: 'required', STAGECRAFT_DATA_DIR: '/srv/sc' }, probe, '/app');
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^STAGECRAFT_SANDBOX=required, but code steps cannot be isolated here: bubblewrap \(bwrap\) is not installed\. Install bubblewrap/);
  // the probe's verdict is kept in the data dir, where boot.ts's probe finds it
  assert.deepEqual(asked, [['required', { cacheDir: '/srv/sc' }]]);
});

test('STAGECRAFT_SANDBOX=required with a working bubblewrap, and any other mode, passes; only required is probed', async () => {
  const works = probing('works');
  assert.deepEqual(await startSettingsProblems({ STAGECRAFT_SANDBOX: 'required' }, works.probe, '/app'), []);
  assert.deepEqual(works.asked, [['required', { cacheDir: '/app/.stagecraft' }]]);
  const fails = probing('fails');
  for (const mode of [undefined, 'auto', 'off']) assert.deepEqual(await startSettingsProblems({ STAGECRAFT_SANDBOX: mode }, fails.probe, '/app'), [], `mode ${mode}`);
  assert.equal(fails.asked.length, 0);
});

test('a mode that is not one is still said as before', async () => {
  const { probe, asked } = probing('works');
  const problems = await startSettingsProblems({ STAGECRAFT_SANDBOX: 'yes' }, probe, '/app');
  assert.equal(problems.length, 1);
  assert.match(problems[0], /STAGECRAFT_SANDBOX/);
  assert.equal(asked.length, 0);
});

// `next start -H 0.0.0.0` (a Docker image's command) without STAGECRAFT_TOKEN served every client that
// sent `Host: 127.0.0.1`: only npm start refused it. The server now reads the address it listens on
const none: Probe = () => ({ kind: 'none', reason: 'bubblewrap (bwrap) is not installed' }) as ReturnType<Probe>;

test('listening beyond loopback without a token, or without a sandbox: refused as npm start refuses it', async () => {
  const works = probing('works');
  const noToken = await startSettingsProblems({}, works.probe, '/app', ['0.0.0.0']);
  assert.equal(noToken.length, 1, noToken.join('\n'));
  assert.match(noToken[0], /^refusing to listen on 0\.0\.0\.0: the app runs the code of the skills it stores.*Set STAGECRAFT_TOKEN/);
  assert.deepEqual(await startSettingsProblems({ STAGECRAFT_TOKEN: 'a-long-secret' }, works.probe, '/app', ['::']), []);
  const unsandboxed = await startSettingsProblems({ STAGECRAFT_TOKEN: 'a-long-secret' }, none, '/app', ['192.0.2.2']);
  assert.equal(unsandboxed.length, 1, unsandboxed.join('\n'));
  assert.match(unsandboxed[0], /^refusing to listen on 192\.0\.2\.2: .*Beyond this machine the app needs the sandbox/);
});

test('on loopback, no token is needed and nothing is probed', async () => {
  const fails = probing('fails');
  for (const at of [['127.0.0.1'], ['::1'], []]) assert.deepEqual(await startSettingsProblems({}, fails.probe, '/app', at), [], String(at));
  assert.equal(fails.asked.length, 0);
});
