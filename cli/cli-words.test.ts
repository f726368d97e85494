// The CLI's errors in its own words: `runs --cursor zzz` said "?cursor=… is not a cursor this API
// gave", and `pull`/`regress` of an unknown skill "List the skills (GET /api/skills…)" — an HTTP
// request to make, from a command line. The API keeps its words (lib/server/runs/list-runs.test.ts).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-cli-words-');
after(cleanup);

const HTTP = /\?cursor=|this API|GET \/api/;

test('runs --cursor zzz: a usage error naming --cursor and what `stagecraft runs` printed', async () => {
  const r = await runCli(['runs', '--cursor', 'zzz'], { env });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /^stagecraft: --cursor "zzz" is not a cursor `stagecraft runs` printed: pass the one its "more:" line gave, as it is\.$/m);
  assert.doesNotMatch(r.err, HTTP);
});

test('pull and regress of an unknown skill, pull of an unknown version: what the CLI and the app offer, no API route', async () => {
  for (const argv of [['pull', 'nosuch', path.join(dir, 'out')], ['regress', 'nosuch']]) {
    const r = await runCli(argv, { env });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^stagecraft: No skill named "nosuch"\. Check the name: the app's home page lists the skills, and `stagecraft push DIR` saves a folder as one\.$/m, argv.join(' '));
    assert.doesNotMatch(r.err, HTTP, argv.join(' '));
  }
  const json = await runCli(['pull', 'nosuch', '--json'], { env });
  const body = JSON.parse(json.out);
  assert.deepEqual([body.error.code, body.error.skill], ['skill_not_found', 'nosuch'], 'the JSON fields stay');
  assert.doesNotMatch(body.error.message, HTTP);

  assert.equal((await runCli(['push', 'examples/summarize'], { env })).code, 0);
  const v = await runCli(['pull', 'summarize', path.join(dir, 'out'), '--version', 'abcdef1'], { env });
  assert.equal(v.code, 2, v.err);
  assert.match(v.err, /^stagecraft: Skill "summarize": no version of it has that hash \(abcdef1\)\. Use a hash that `stagecraft versions summarize` lists \(or `stagecraft push` printed\), or leave --version out for the latest\.$/m);
  assert.doesNotMatch(v.err, HTTP);
});

// `run --queue` on the embedded store said "--queue: STAGECRAFT_WORKERS=external needs a Postgres
// store", naming a setting the caller had not made
test('run --queue on the embedded store says, in the words of --queue, that it runs here', async () => {
  const r = await runCli(['run', 'examples/summarize', '--queue', '--json'], { env });
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).status, 'completed');
  assert.match(r.err, /^stagecraft: --queue needs a Postgres store \(set DATABASE_URL\) for `stagecraft worker` processes to drive the run: the embedded store belongs to one process, so this run is driven here\.$/m);
  assert.doesNotMatch(r.err, /STAGECRAFT_WORKERS/);
});
