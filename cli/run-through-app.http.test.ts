// `stagecraft run DIR` beside the running app (`npm start` in one terminal, the run in another): the app
// holds the embedded store, and the run goes through its HTTP API — the folder's files sent with the
// run, recorded as the version a run on the store records (the same files, the same version), the run followed to its end — printing what the same command prints on the store once
// the app has stopped (stdout byte for byte but the run's id, exit code the same). Ctrl-C leaves the
// run to the app and says how to abort it; --workspace stays store_locked, saying why.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import type { RouteInput } from '../lib/api/route-def';
import { BIN, ROOT, type CliResult } from './testing/spawn-cli';
import { besideApp, sameOutput as same } from './testing/beside-app';

const { dataDir, start, app, env, cli, call, note: said } = besideApp('sc-run-app-');
const work = mkdtempSync(path.join(tmpdir(), 'sc-run-app-work-'));
after(() => rmSync(work, { recursive: true, force: true }));

const runIdOf = (r: CliResult) => /^run (run_\w+): /m.exec(r.out)?.[1] ?? (JSON.parse(r.out) as { runId: string }).runId;

const blog = path.join(work, 'blog_writer');
const sleeper = path.join(work, 'sleeper');
const broken = path.join(work, 'blank.json');

describe('stagecraft run DIR while the app holds the embedded store', () => {
  let note: string;
  const viaApp: Record<string, CliResult> = {};
  /** each run by a name: through the app, then on the store itself */
  const commands: Record<string, { args: string[]; stdin?: string }> = {
    text: { args: ['run', 'examples/summarize', '--input', 'examples/summarize/input.json'] },
    json: { args: ['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json'] },
    skillMd: { args: ['run', 'examples/summarize/skill.md', '--input', '-', '--model', 'scripted:model.yaml'], stdin: '{"path": "report.txt"}' },
    failed: { args: ['run', blog, '--input', path.join(blog, 'input.json')] },
    failedJson: { args: ['run', blog, '--input', path.join(blog, 'input.json'), '--json'] },
    badInput: { args: ['run', 'examples/research_brief', '--input', broken, '--json'] },
    invalid: { args: ['run', 'examples', '--json'] },
  };
  before(async () => {
    cpSync(path.join(ROOT, 'examples/blog_writer'), blog, { recursive: true });
    // a postprocessor step that fails: the run ends aborted at __post__/1, and says how to go on
    const code = path.join(blog, 'rendering.py');
    writeFileSync(code, readFileSync(code, 'utf8').replace('value["body"]))', 'value["text"]))'));
    cpSync(path.join(ROOT, 'examples/blog_writer'), sleeper, { recursive: true });
    const sleepy = path.join(sleeper, 'rendering.py');
    writeFileSync(sleepy, `${readFileSync(sleepy, 'utf8')}\n\ndef count_words(value):\n    import time\n    time.sleep(120)\n    return {"word_count": 1, "reading_minutes": 1}\n`);
    writeFileSync(broken, '{"question": 7}');
    await start();
    note = said();
  });

  it('goes through the app, said once on stderr; the folder is recorded as the version a run records', async () => {
    const stored = (await call(routes.getSkill, { params: { name: 'summarize' } })).version!.hash;
    for (const [name, c] of Object.entries(commands)) {
      const r = await cli(c.args, c.stdin);
      viaApp[name] = r;
      assert.ok(r.err.startsWith(`${note}\n`) || name === 'invalid' || name === 'badInput', `${name}: ${r.err}`);
      assert.ok(!r.out.includes('through the app'), name);
    }
    assert.equal(viaApp.text.code, 0, viaApp.text.err);
    assert.match(viaApp.text.out, /^run run_\w+: completed\noutcome: succeeded\n/);
    assert.equal(viaApp.failed.code, 1);
    assert.match(viaApp.failed.out.trimEnd().split('\n').pop()!, /^next: fix the cause, then `stagecraft fork run_\w+` reruns it from __post__\/1: /);
    assert.equal(viaApp.badInput.code, 2, viaApp.badInput.err);
    assert.equal((JSON.parse(viaApp.badInput.out) as { error: { code: string } }).error.code, 'input_invalid', 'checked here, before anything is sent');

    const [a, b, c] = await Promise.all(['text', 'json', 'skillMd'].map((n) => call(routes.getRun, { params: { id: runIdOf(viaApp[n]) } })));
    assert.equal(a.skill, 'summarize');
    assert.ok(a.version === stored && b.version === stored && c.version === stored, 'the same files: the same version, each time');
    assert.equal((await call(routes.listVersions, { params: { name: 'summarize' } })).versions.length, 1, 'and no other');
    assert.equal(a.kind, 'run');
    const failedRun = await call(routes.getRun, { params: { id: runIdOf(viaApp.failed) } });
    assert.notEqual(failedRun.version, (await call(routes.getRun, { params: { id: runIdOf(viaApp.text) } })).version, 'the folder as it is');
    const versions = (await call(routes.listVersions, { params: { name: 'blog_writer' } })).versions;
    assert.equal(versions.filter((v) => v.hash === failedRun.version).length, 1, 'recorded once for two runs');
  });

  it('POST /api/runs with files: 4xx for files and a version at once, or files of another skill', async () => {
    const files = (await call(routes.getSkill, { params: { name: 'summarize' } })).version!.files;
    const refused = async (body: RouteInput<typeof routes.startRun>['body']) => {
      try {
        await call(routes.startRun, { body });
      } catch (e) {
        return e as { status: number; message: string };
      }
      assert.fail('started');
    };
    const both = await refused({ skill: 'summarize', files, version: 'abcdef12', input: {} });
    assert.equal(both.status, 400);
    assert.match(both.message, /send a version or files, not both/);
    const other = await refused({ skill: 'blog_writer', files, input: { path: 'report.txt' } });
    assert.equal(other.status, 400);
    assert.match(other.message, /The files are skill summarize \(the name in their skill\.md\), not blog_writer\./);
  });

  it('--workspace cannot go through the app: store_locked, saying why', async () => {
    const r = await cli(['run', 'examples/summarize', '--workspace', work, '--json']);
    assert.equal(r.code, 1);
    const { error } = JSON.parse(r.out) as { error: { code: string; message: string } };
    assert.equal(error.code, 'store_locked');
    assert.ok(error.message.startsWith(`The embedded store in ${dataDir} is in use by another process: pid `), error.message);
    assert.match(error.message, /`stagecraft run` cannot go through it here: the app takes no folder of this machine as a run's workspace \(--workspace\)\.$/);
  });

  it('a skill naming run_skill cannot go through the app: its children are the folders beside it here, stored skills there', async () => {
    const parent = path.join(work, 'parent');
    cpSync(path.join(ROOT, 'examples/summarize'), parent, { recursive: true });
    writeFileSync(path.join(parent, 'skill.md'), `${readFileSync(path.join(parent, 'skill.md'), 'utf8')}\nThen run_skill the sibling.\n`);
    const r = await cli(['run', parent, '--json']);
    assert.equal(r.code, 1);
    const { error } = JSON.parse(r.out) as { error: { code: string; message: string } };
    assert.equal(error.code, 'store_locked');
    assert.match(error.message, /`stagecraft run` cannot go through it here: its skill\.md names run_skill, /);
  });

  async function stoppedWhileFollowing(signal: NodeJS.Signals, exitCode: number) {
    const running = async () => (await call(routes.listRuns, { query: { skill: 'blog_writer', status: ['running'] } })).runs.map((r) => r.runId);
    const before = new Set(await running());
    const child = spawn(process.execPath, [BIN, 'run', sleeper, '--input', path.join(sleeper, 'input.json')], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    let runId: string | undefined;
    for (let i = 0; i < 600 && !runId; i++) {
      await new Promise((r) => setTimeout(r, 100));
      runId = (await running()).find((id) => !before.has(id));
    }
    assert.ok(runId, 'the run started in the app');
    await new Promise((r) => setTimeout(r, 1000));
    child.kill(signal);
    assert.equal(await exited, exitCode, err);
    assert.match(err, new RegExp(`^stagecraft: run ${runId} goes on in the app at ${app().url.replace(/[.]/g, '\\.')}; to abort it: stagecraft abort ${runId}$`, 'm'));
    assert.equal((await call(routes.getRun, { params: { id: runId } })).status, 'running');
    await call(routes.abortRun, { params: { id: runId }, body: {} });
  }

  it('Ctrl-C stops following the run, not the run: it goes on in the app, and the command says how to abort it', async () => {
    await stoppedWhileFollowing('SIGINT', 130);
  });

  // a cancelled CI job: before, SIGTERM killed the command silently, the run's id nowhere
  it('SIGTERM stops following the run the same way, saying so, with its own exit code', async () => {
    await stoppedWhileFollowing('SIGTERM', 143);
  });

  it('once the app has stopped, the same runs print the same on the store itself', async () => {
    await app().stop();
    for (const [name, c] of Object.entries(commands)) {
      const r = await cli(c.args, c.stdin);
      assert.equal(r.code, viaApp[name].code, `${name}: ${r.err}`);
      assert.equal(same(r.out), same(viaApp[name].out), name);
    }
  });
});
