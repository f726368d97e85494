// The stagecraft command end to end, as it ships (bin/stagecraft.mjs running the compiled dist/,
// in a child process), on a throwaway Postgres database: exit codes, --json shapes, located errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, cpSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from './testing/spawn-cli';
import { createTestDatabase, type TestDatabase } from '../lib/store/testing/pg-test-db';
import { openStore } from '../lib/store';
import { RunEventsView } from '../lib/views/events';
import { ev, makeRun } from '../lib/store/testing/fixtures';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
  process.env.DATABASE_URL = db.url;
});
after(async () => {
  delete process.env.DATABASE_URL;
  await db?.drop();
});

const cli = (...argv: string[]) => runCli(argv, { stdin: '{}' });

const examples = path.resolve('examples');

test('validate: a valid bundle exits 0', async () => {
  const r = await cli('validate', path.join(examples, 'blog_writer'));
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /valid/);
});

test('validate: an invalid skill exits 1 with file:line:col errors, and --json lists them', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-cli-'));
  writeFileSync(path.join(dir, 'skill.md'), '---\nname: bad\nentry: draft\ngraph:\n  draft: []\nfinal_output: post\nartifacts:\n  post: { type: object }\nphasez: {}\n---\nbody\n');
  const r = await cli('validate', dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /skill\.md:9:1: error: .*phasez.*did you mean .*phases/i);
  const j = await cli('validate', dir, '--json');
  assert.equal(j.code, 1);
  const body = JSON.parse(j.out);
  assert.equal(body.ok, false);
  assert.equal(body.diagnostics[0].line, 9);
  assert.equal(body.diagnostics[0].column, 1);
});

test('run --json on an example: exit 0 and the documented fields', async () => {
  const r = await cli('run', path.join(examples, 'research_brief'), '--input', path.join(examples, 'research_brief', 'input.json'), '--json');
  assert.equal(r.code, 0, r.err);
  const s = JSON.parse(r.out);
  assert.match(s.runId, /^run_/);
  assert.equal(s.status, 'completed');
  assert.equal(s.error, null);
  assert.equal(s.output.contact, 'Priya Nair, [redacted]');
  assert.equal(s.report.outcome, 'blocked');
  assert.ok('block_reason' in s.report && 'failed_stage' in s.report);
  const t = s.traces[0];
  for (const k of ['round', 'phase', 'rung', 'capability', 'stage', 'status', 'effects', 'error']) assert.ok(k in t, `trace field ${k}`);
  assert.deepEqual(Object.keys(t.effects).sort(), ['asked', 'granted']);
  // the events of that run
  const ev = await cli('events', s.runId, '--json');
  assert.equal(ev.code, 0);
  const events = JSON.parse(ev.out).events;
  assert.deepEqual(events.map((e: { seq: number }) => e.seq), events.map((_: unknown, i: number) => i + 1));
  assert.equal(events.at(-1).type, 'run_completed');
  // each event is its kind's view: a stage step carries its rung and capability, typed
  const typed = RunEventsView.parse(JSON.parse(ev.out));
  assert.deepEqual(typed, JSON.parse(ev.out), 'nothing the view does not name');
  const guard = typed.events.find((e) => e.type === 'step_completed' && e.data.kind === 'stage' && e.data.rung === 'pre-tool');
  assert.ok(guard && guard.type === 'step_completed' && guard.data.kind === 'stage' && guard.data.capability === 'path_guard');
  const text = await cli('events', s.runId);
  assert.match(text.out, /gather\/r1\/pre-tool\/path_guard: denied call 2 \(reading secrets\/keys\.txt is not allowed by path_guard\)/);
});

test('a run records the skill version it ran (the same text, the same version); resuming a completed run exits 0 with its outcome', async () => {
  const bundle = path.join(examples, 'summarize');
  const run = async () => JSON.parse((await cli('run', bundle, '--input', path.join(bundle, 'input.json'), '--json')).out);
  const [a, b] = [await run(), await run()];
  // `runs --json` prints the API's run views (runId, version hash, …), not store records
  const runs = JSON.parse((await cli('runs', '--json')).out).runs as { runId: string; version: string | null; skillText?: unknown }[];
  const versionOf = (id: string) => runs.find((r) => r.runId === id)!.version;
  assert.match(versionOf(a.runId) ?? '', /^[0-9a-f]{64}$/, 'the run names its skill version');
  assert.equal(versionOf(b.runId), versionOf(a.runId));
  assert.ok(runs.every((r) => !('skillText' in r)), 'no store record fields');
  const store = await openStore({ databaseUrl: db.url });
  try {
    const v = await store.skills.getVersion('summarize', versionOf(a.runId)!);
    assert.equal(v?.skillName, 'summarize');
    // the whole bundle, every file as it is in the folder
    assert.deepEqual(Object.keys(v!.files).sort(), readdirSync(bundle).sort());
    assert.equal(v?.files['skill.md'], readFileSync(path.join(bundle, 'skill.md'), 'utf8'));
    assert.equal(v?.files['sanitize.py'], readFileSync(path.join(bundle, 'sanitize.py'), 'utf8'));
  } finally {
    await store.close();
  }
  const again = await cli('resume', a.runId, '--json');
  assert.equal(again.code, 0, again.err);
  assert.equal(JSON.parse(again.out).status, 'completed');
  assert.deepEqual(JSON.parse(again.out).output, a.output);
});

test('run: an aborted run exits 1 with error.code workflow_aborted and the step it concerns', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-cli-'));
  cpSync(path.join(examples, 'blog_writer'), dir, { recursive: true });
  // a caller contract the rendering cannot meet
  writeFileSync(path.join(dir, 'rendering.py'), 'def to_html(value):\n    return {"html_rendered": ""}\n\ndef count_words(value):\n    raise ValueError("no words today")\n');
  const r = await cli('run', dir, '--input', path.join(dir, 'input.json'), '--json');
  assert.equal(r.code, 1);
  const s = JSON.parse(r.out);
  assert.equal(s.status, 'aborted');
  assert.equal(s.error.code, 'workflow_aborted');
  assert.equal(s.error.phase, '__post__');
  assert.equal(s.error.step, 1);
  assert.match(s.error.message, /no words today/);
  assert.deepEqual(s.steps.map((x: { status: string }) => x.status), ['ok', 'failed']);
  assert.equal(s.report.outcome, 'blocked');
});

test('run: usage errors and invalid skills exit 2', async () => {
  assert.equal((await cli('run')).code, 2);
  assert.equal((await cli('run', path.join(examples, 'blog_writer'), '--bogus')).code, 2);
  assert.equal((await cli('run', '/nonexistent/bundle')).code, 2);
  const bad = mkdtempSync(path.join(tmpdir(), 'sc-cli-'));
  writeFileSync(path.join(bad, 'skill.md'), '---\nname: Bad Name\n---\n');
  const r = await cli('run', bad, '--json');
  assert.equal(r.code, 2);
  assert.equal(JSON.parse(r.out).error.code, 'skill_invalid');
  const notJson = path.join(bad, 'in.json');
  writeFileSync(notJson, '{nope');
  const r2 = await cli('run', path.join(examples, 'blog_writer'), '--input', notJson);
  assert.equal(r2.code, 2);
  assert.match(r2.err, /not valid JSON/);
});

test('resume with nothing to resume exits 0; an unknown run id is a clear error', async () => {
  const r = await cli('resume', '--json');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out), { resumed: [] });
  const e = await cli('events', 'run_missing');
  assert.equal(e.code, 1);
  assert.match(e.err, /No run with id run_missing/);
});

test('schema prints the frontmatter JSON Schema the validator uses', async () => {
  const r = await cli('schema');
  assert.equal(r.code, 0);
  const schema = JSON.parse(r.out);
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.ok(schema.properties.postprocessor);
});

test('runs --json prints run views, filtered (attention, failure point, outcome, search) and paged by cursor', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-cli-'));
  cpSync(path.join(examples, 'blog_writer'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'rendering.py'), 'def to_html(value):\n    return {"html_rendered": ""}\n\ndef count_words(value):\n    raise ValueError("no words for the cli filter test")\n');
  const aborted = JSON.parse((await cli('run', dir, '--input', path.join(dir, 'input.json'), '--json')).out);
  const ok = JSON.parse((await cli('run', path.join(examples, 'summarize'), '--input', path.join(examples, 'summarize', 'input.json'), '--json')).out);
  const list = async (...flags: string[]) => {
    const r = await cli('runs', '--json', ...flags);
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out) as { runs: { runId: string; status: string; outcome: string | null; failedAt: string | null; needsAttention: boolean; errorMessage: string | null }[]; next: string | null };
  };
  const attention = await list('--attention');
  const row = attention.runs.find((r) => r.runId === aborted.runId);
  assert.deepEqual([row?.status, row?.outcome, row?.failedAt, row?.needsAttention], ['aborted', 'blocked', '__post__/1', true]);
  assert.ok(!attention.runs.some((r) => r.runId === ok.runId), 'a completed run that succeeded needs no attention');
  assert.deepEqual((await list('--failed', '__post__/1', '--search', 'no words for the cli filter')).runs.map((r) => r.runId), [aborted.runId]);
  assert.ok((await list('--outcome', 'succeeded')).runs.some((r) => r.runId === ok.runId));
  // newest first, a page at a time: the second page goes on where the first stopped
  const first = await list('--limit', '1');
  assert.equal(first.runs[0].runId, ok.runId);
  assert.ok(first.next);
  const second = await list('--limit', '1', '--cursor', first.next!);
  assert.equal(second.runs[0].runId, aborted.runId);
  // the text form lists the same runs, and says where the next page is
  const text = await cli('runs', '--limit', '1');
  assert.match(text.out, new RegExp(`^${ok.runId}\\s+completed\\s+summarize`));
  assert.match(text.err, /more: stagecraft runs --cursor \S+/);
});

test('runs: bad flags are usage errors (exit 2), not internal errors', async () => {
  assert.equal((await cli('runs', '--limit', 'abc')).code, 2);
  const r = await cli('runs', '--status', 'bogus');
  assert.equal(r.code, 2);
  assert.match(r.err, /a status is one of queued, running, completed, failed, aborted/);
  assert.match((await cli('runs', '--outcome', 'meh')).err, /an outcome is one of succeeded, blocked, failed/);
  assert.match((await cli('runs', '--since', 'yesterday-ish')).err, /give a date/);
  assert.match((await cli('runs', '--cursor', 'nope')).err, /not a cursor `stagecraft runs` printed/);
  assert.equal((await cli('resume', 'run_nope')).code, 1);
});

test('the installed command (bin/stagecraft.mjs, what npx runs) works from a shell', async () => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'validate', path.join(examples, 'summarize'), '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).ok, true);
  const bad = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'frobnicate'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown command "frobnicate"/);
});

test('the installed command on the embedded database (no DATABASE_URL): run, events, runs, resume', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const root = mkdtempSync(path.join(tmpdir(), 'sc-cli-embedded-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = path.join(root, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const sc = (...args: string[]) => spawnSync(process.execPath, ['bin/stagecraft.mjs', ...args], { encoding: 'utf8', env });
  const bundle = path.join(examples, 'summarize');
  const run = sc('run', bundle, '--input', path.join(bundle, 'input.json'), '--json');
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /creating the embedded database in/);
  const { runId, status } = JSON.parse(run.stdout);
  assert.equal(status, 'completed');
  const ev = sc('events', runId, '--json');
  assert.equal(ev.status, 0, ev.stderr);
  const events = JSON.parse(ev.stdout).events as { seq: number; type: string }[];
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
  assert.equal(events.at(-1)?.type, 'run_completed');
  const listed = sc('runs');
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(`${runId}\\s+completed\\s+summarize`));
  assert.doesNotMatch(listed.stderr, /creating/, 'the second start opens the data dir it made');
  const resumed = sc('resume', '--json');
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.deepEqual(JSON.parse(resumed.stdout), { resumed: [] });
});

test('no command is a usage error on stderr; --help is the usage on stdout', async () => {
  const none = await cli();
  assert.equal(none.code, 2);
  assert.equal(none.out, '');
  assert.match(none.err, /usage:/);
  const help = await cli('--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /usage:/);
  // what CI needs to know without the README: the model a run takes by default, and the exit codes
  assert.match(help.out, /^run uses the bundle's model\.yaml .* unless --model says otherwise\.$/m);
  assert.match(help.out, /^Exit codes: 0 done; 1 a run failed or was aborted, validate found errors/m);
});

test('resume with no run: a run that cannot be resumed is reported on stderr with why (exit 1); abort ends it for good', async () => {
  const store = await openStore({ databaseUrl: db.url });
  const stuck = makeRun({ model: 'scripted:/nonexistent/model.yaml', bundleDir: '/nonexistent/bundle' });
  try {
    await store.createRun(stuck, { events: [ev(stuck.id, 1)], snapshot: { runId: stuck.id, currentPhase: 'draft', seq: 1, data: {} } });
  } finally {
    await store.close();
  }
  const r = await cli('resume');
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.out, new RegExp(stuck.id));
  assert.match(r.err, new RegExp(`${stuck.id}: not_resumed — .+`));
  const aborted = await cli('abort', stuck.id, '--reason', 'its bundle is gone', '--json');
  assert.equal(aborted.code, 0, aborted.err);
  assert.equal(JSON.parse(aborted.out).status, 'aborted');
  assert.match(JSON.parse(aborted.out).error.message, /aborted on request: its bundle is gone/);
  assert.match(JSON.parse(aborted.out).report.summary, /^Aborted on request by cli( \(user .+\))?: its bundle is gone$/, 'the run says who asked');
  assert.equal(JSON.parse(aborted.out).report.needs_attention, false);
  assert.deepEqual(JSON.parse((await cli('resume', '--json')).out), { resumed: [] }, 'never resumed again');
  const again = await cli('abort', stuck.id);
  assert.equal(again.code, 1);
  assert.match(again.err, /has already ended \(aborted\); there is nothing to abort/);
  assert.equal((await cli('abort')).code, 2);
});

test('push and pull: a folder becomes a version of its skill and comes back byte for byte; versions by hash', async () => {
  const src = mkdtempSync(path.join(tmpdir(), 'sc-push-'));
  cpSync(path.join(examples, 'code_review'), src, { recursive: true });
  writeFileSync(path.join(src, 'skill.md'), readFileSync(path.join(src, 'skill.md'), 'utf8').replace('name: code_review', 'name: pushed_review'));
  const first = await cli('push', src, '--json');
  assert.equal(first.code, 0, first.err);
  const v1 = JSON.parse(first.out);
  assert.equal(v1.skill, 'pushed_review');
  assert.equal(v1.isNew, true);
  assert.equal(v1.validation.ok, true);
  const again = await cli('push', src);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, new RegExp(`pushed_review: unchanged, version ${v1.version.hash.slice(0, 12)}`));
  writeFileSync(path.join(src, 'enrich.mjs'), `${readFileSync(path.join(src, 'enrich.mjs'), 'utf8')}\n// changed\n`);
  const second = JSON.parse((await cli('push', src, '--json')).out);
  assert.notEqual(second.version.hash, v1.version.hash);

  // the latest, into a new folder: every file as it was pushed
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'sc-pull-')), 'review');
  const pulled = await cli('pull', 'pushed_review', out);
  assert.equal(pulled.code, 0, pulled.err);
  const files = (dir: string) => {
    const walk = (d: string, rel = ''): string[] =>
      readdirSync(path.join(d, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(d, path.join(rel, e.name)) : [path.join(rel, e.name)]));
    return Object.fromEntries(walk(dir).sort().map((p) => [p, readFileSync(path.join(dir, p), 'utf8')]));
  };
  assert.deepEqual(files(out), files(src));
  // an older version by a prefix of its hash; a file of the folder that is not in it is left, and said
  writeFileSync(path.join(out, 'notes.local'), 'mine');
  const older = await cli('pull', 'pushed_review', out, '--version', v1.version.hash.slice(0, 10));
  assert.equal(older.code, 0, older.err);
  assert.match(older.err, /also holds notes\.local, not in this version/);
  assert.doesNotMatch(readFileSync(path.join(out, 'enrich.mjs'), 'utf8'), /\/\/ changed/);
  assert.equal(readFileSync(path.join(out, 'notes.local'), 'utf8'), 'mine');
  // unknown skills and versions are clear errors, and the caller's input: exit 2
  const none = await cli('pull', 'nobody_here', out);
  assert.equal(none.code, 2);
  assert.match(none.err, /No skill named "nobody_here"/);
  const noVersion = await cli('pull', 'pushed_review', out, '--version', 'abcdef0123');
  assert.equal(noVersion.code, 2);
  assert.match(noVersion.err, /no version of it has that hash/);
});

test('push refuses what a bundle cannot hold, naming the file; a skill.md with errors is saved, and said', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-push-bad-'));
  cpSync(path.join(examples, 'summarize'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'skill.md'), readFileSync(path.join(dir, 'skill.md'), 'utf8').replace('name: summarize', 'name: push_checks'));
  writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]));
  const binary = await cli('push', dir);
  assert.equal(binary.code, 1);
  assert.match(binary.err, /logo\.png is not UTF-8 text/);
  rmSync(path.join(dir, 'logo.png'));
  const { symlinkSync } = await import('node:fs');
  symlinkSync('/etc/hostname', path.join(dir, 'leak.txt'));
  const link = await cli('push', dir);
  assert.equal(link.code, 1);
  assert.match(link.err, /leak\.txt is a symlink to .*outside the bundle folder/);
  // validate finds the same, located at the file
  const v = JSON.parse((await cli('validate', dir, '--json')).out);
  assert.equal(v.ok, false);
  assert.ok(v.diagnostics.some((d: { rule: string; file: string }) => d.rule === 'bundle_symlink_escape' && d.file.endsWith('leak.txt')));
  rmSync(path.join(dir, 'leak.txt'));
  writeFileSync(path.join(dir, 'skill.md'), readFileSync(path.join(dir, 'skill.md'), 'utf8').replace('entry: summarize', 'entry: nowhere'));
  const broken = await cli('push', dir);
  assert.equal(broken.code, 0, broken.err);
  assert.match(broken.out, /skill\.md has (1 error: runs of it are refused until it is|\d+ errors: runs of it are refused until they are) fixed/);
  assert.match(broken.err, /skill\.md:\d+:\d+: error: .*nowhere/);
});

test('run --workspace: file ops act on the named folder (then the bundle, read-only); the bundle is never written', async () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'sc-ws-'));
  const { mkdirSync } = await import('node:fs');
  mkdirSync(path.join(ws, 'src'));
  writeFileSync(path.join(ws, 'src', 'cart.test.js'), 'test one\ntest two\n');
  const bundle = path.join(examples, 'code_review');
  const before = readFileSync(path.join(bundle, 'src', 'cart.js'), 'utf8');
  const r = await cli('run', bundle, '--input', path.join(bundle, 'input.json'), '--workspace', ws, '--json');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out).output as { affected_files: { path: string; exists: boolean; lines?: number }[] };
  assert.deepEqual(out.affected_files, [
    { path: 'src/cart.js', exists: true, lines: 8 },
    { path: 'src/cart.test.js', exists: true, lines: 3 },
  ]);
  assert.equal(readFileSync(path.join(bundle, 'src', 'cart.js'), 'utf8'), before);
  const missing = await cli('run', bundle, '--workspace', path.join(ws, 'nope'));
  assert.equal(missing.code, 2);
  assert.match(missing.err, /--workspace .*nope does not exist: create the folder/);
});

test('run --input is bounded: over 8 MB, or nested deeper than 128 levels, is a usage error without a stack', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-input-'));
  const big = path.join(dir, 'big.json');
  writeFileSync(big, JSON.stringify({ blob: 'x'.repeat(9 * 1024 * 1024) }));
  const tooBig = await cli('run', path.join(examples, 'summarize'), '--input', big);
  assert.equal(tooBig.code, 2);
  assert.match(tooBig.err, /--input .*big\.json is over 8 MB/);
  const deep = path.join(dir, 'deep.json');
  writeFileSync(deep, `{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  const tooDeep = await cli('run', path.join(examples, 'summarize'), '--input', deep);
  assert.equal(tooDeep.code, 2);
  assert.match(tooDeep.err, /nests arrays or objects deeper than 128 levels/);
  assert.doesNotMatch(tooDeep.err, /internal error|RangeError|at .*\.ts:\d+/);
});

test('a skill.md that is not UTF-8 is a located error, for validate and for run', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-utf8-'));
  writeFileSync(path.join(dir, 'skill.md'), Buffer.concat([Buffer.from('---\nname: latin\ndescription: caf'), Buffer.from([0xe9]), Buffer.from(' au lait\n---\n')]));
  const v = await cli('validate', dir);
  assert.equal(v.code, 1);
  assert.match(v.err, /skill\.md:3:17: error: skill\.md is not valid UTF-8: byte 0xE9 at line 3, column 17/);
  assert.doesNotMatch(v.err, /has no skill\.md/);
  const r = await cli('run', dir, '--json');
  assert.equal(r.code, 2);
  assert.match(JSON.parse(r.out).error.message, /skill\.md:3:17: error: skill\.md is not valid UTF-8/);
});

test('run says on stderr, once, when code workers get no cgroup caps here (the status the CLI reads reaches the warning)', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const setpriv = spawnSync('setpriv', ['--version']);
  if (process.getuid?.() !== 0 || setpriv.status !== 0) return t.skip('needs root and setpriv, to run the command as a user who may make no cgroup');
  const asNobody = ['--reuid=65534', '--regid=65534', '--clear-groups'];
  // a checkout in a folder only root may enter (mktemp -d) cannot be run as nobody
  const readable = spawnSync('setpriv', [...asNobody, process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(path.resolve('bin/stagecraft.mjs'))})`]);
  if (readable.status !== 0) return t.skip('the checkout is not readable by nobody here');
  const bundle = path.join(examples, 'summarize');
  const args = ['run', bundle, '--input', path.join(bundle, 'input.json'), '--json'];
  // as root here, cgroups can be made (the sandbox's own tests use them): nothing to say
  const asRoot = await cli(...args);
  assert.equal(asRoot.code, 0, asRoot.err);
  assert.doesNotMatch(asRoot.err, /cgroup/);
  // as nobody, no cgroup folder is writable: the same run says so, with where to look
  const home = mkdtempSync(path.join(tmpdir(), 'sc-cli-nobody-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const { chmodSync } = await import('node:fs');
  chmodSync(home, 0o777);
  const r = spawnSync('setpriv', [...asNobody, process.execPath, 'bin/stagecraft.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, STAGECRAFT_DATA_DIR: path.join(home, 'data') },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status, 'completed');
  const said = r.stderr.split('\n').filter((l) => /cgroup/.test(l));
  assert.equal(said.length, 1, r.stderr);
  assert.match(said[0], /^stagecraft: .*no cgroup caps here \(no writable pids or memory cgroup/);
  assert.match(said[0], /GET \/api\/health/);
});
