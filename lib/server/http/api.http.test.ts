// The HTTP API against the built app, as a client meets it: every route, bad
// input (4xx with a located message, never a 500), bodies over the cap (413
// before parsing), cross-site requests and foreign Host names (403), and the
// same findings as `stagecraft validate --json`.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp, type AppServer } from './testing/app-server';
import { main } from '../../../cli/main';

let app: AppServer;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

type Reply = { status: number; headers: Record<string, string | string[] | undefined>; body: any; text: string };

/** one request with exactly these headers (fetch would add or refuse some, e.g. Host) */
function raw(method: string, p: string, opts: { headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(opts.body !== undefined && !opts.chunked ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}), ...opts.headers };
    const req = request({ host: '127.0.0.1', port: app.port, method, path: p, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}

const json = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
  raw(method, p, { body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

function isError(r: Reply, status: number, code: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body?.error?.code, code, r.text);
  assert.equal(typeof r.body.error.message, 'string');
  assert.ok(r.body.error.message.length > 20, `a message that says what to do: ${r.body.error.message}`);
}

async function waitForEnd(runId: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const r = await json('GET', `/api/runs/${runId}`);
    assert.equal(r.status, 200, r.text);
    if (r.body.status !== 'running') return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`run ${runId} did not end`);
}

describe('skills', () => {
  it('GET /api/skills lists the example skills with their description, save time and last run', async () => {
    const r = await json('GET', '/api/skills');
    assert.equal(r.status, 200);
    const names = r.body.skills.map((s: { name: string }) => s.name);
    for (const n of ['blog_writer', 'code_review', 'research_brief', 'summarize']) assert.ok(names.includes(n), n);
    const s = r.body.skills.find((x: { name: string }) => x.name === 'research_brief');
    assert.match(s.description, /research notes/);
    assert.equal(typeof s.savedAt, 'number');
    assert.match(s.latestVersion, /^[0-9a-f]{64}$/);
  });

  it('POST /api/skills creates a blank skill (a template that runs), refuses a taken or bad name, copies another skill', async () => {
    const created = await json('POST', '/api/skills', { name: 'fresh_one' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.name, 'fresh_one');
    assert.match(created.body.version.files['skill.md'], /^---\nname: fresh_one\n/);
    assert.ok(created.body.version.files['model.yaml']);
    isError(await json('POST', '/api/skills', { name: 'fresh_one' }), 409, 'skill_exists');
    const bad = await json('POST', '/api/skills', { name: 'Bad Name' });
    isError(bad, 400, 'invalid_request');
    assert.match(bad.body.error.message, /name/);
    const copy = await json('POST', '/api/skills', { name: 'summary_copy', from: 'summarize' });
    assert.equal(copy.status, 201, copy.text);
    const original = await json('GET', '/api/skills/summarize');
    assert.deepEqual(Object.keys(copy.body.version.files).sort(), Object.keys(original.body.version.files).sort());
    assert.equal(copy.body.version.files['skill.md'], original.body.version.files['skill.md'].replace('name: summarize', 'name: summary_copy'));
    isError(await json('POST', '/api/skills', { name: 'from_nowhere', from: 'no_such_skill' }), 404, 'skill_not_found');
  });

  it('GET /api/skills/<name> returns the latest version with every file; an unknown skill is 404', async () => {
    const r = await json('GET', '/api/skills/blog_writer');
    assert.equal(r.status, 200);
    assert.ok(r.body.version.files['rendering.py'].includes('def to_html'));
    assert.equal(r.body.version.fileCount, Object.keys(r.body.version.files).length);
    isError(await json('GET', '/api/skills/nobody_here'), 404, 'skill_not_found');
  });

  it('versions: saving files makes a version (the same files, the same version); list, get by hash or prefix, and bad bundles refused', async () => {
    const files = (await json('GET', '/api/skills/fresh_one')).body.version.files;
    const changed = { ...files, 'notes.txt': 'a note\n' };
    const v = await json('POST', '/api/skills/fresh_one/versions', { files: changed });
    assert.equal(v.status, 201, v.text);
    assert.equal(v.body.isNew, true);
    assert.equal(v.body.validation.ok, true);
    const again = await json('POST', '/api/skills/fresh_one/versions', { files: changed });
    assert.equal(again.body.isNew, false);
    assert.equal(again.body.version.hash, v.body.version.hash);
    const list = await json('GET', '/api/skills/fresh_one/versions');
    assert.deepEqual(list.body.versions.map((x: { hash: string }) => x.hash)[0], v.body.version.hash);
    assert.equal(list.body.versions.length, 2);
    const got = await json('GET', `/api/skills/fresh_one/versions/${v.body.version.hash.slice(0, 10)}`);
    assert.deepEqual(got.body.files, changed);
    isError(await json('GET', `/api/skills/fresh_one/versions/${'0'.repeat(64)}`), 404, 'version_not_found');
    const escape = await json('POST', '/api/skills/fresh_one/versions', { files: { ...files, '../outside.py': 'x' } });
    isError(escape, 422, 'bundle_invalid');
    assert.equal(escape.body.error.details.problems[0].path, '../outside.py');
    isError(await json('POST', '/api/skills/fresh_one/versions', { files: { ...files, 'blob.bin': 'a\u0000b' } }), 422, 'bundle_invalid');
    isError(await json('POST', '/api/skills/fresh_one/versions', { files: { 'notes.txt': 'no skill.md' } }), 422, 'bundle_invalid');
    isError(await json('POST', '/api/skills/fresh_one/versions', { files: { 'skill.md': 42 } }), 400, 'invalid_request');
    isError(await json('POST', '/api/skills/nobody_here/versions', { files }), 404, 'skill_not_found');
  });

  it('PATCH renames (skill.md follows), DELETE removes from the list; a taken name is 409', async () => {
    await json('POST', '/api/skills', { name: 'to_rename' });
    isError(await json('PATCH', '/api/skills/to_rename', { name: 'summarize' }), 409, 'skill_exists');
    const r = await json('PATCH', '/api/skills/to_rename', { name: 'renamed_one' });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.version.files['skill.md'], /^---\nname: renamed_one\n/);
    isError(await json('GET', '/api/skills/to_rename'), 404, 'skill_not_found');
    const del = await raw('DELETE', '/api/skills/renamed_one');
    assert.equal(del.status, 204);
    assert.ok(!(await json('GET', '/api/skills')).body.skills.some((s: { name: string }) => s.name === 'renamed_one'));
    isError(await raw('DELETE', '/api/skills/renamed_one'), 404, 'skill_not_found');
  });
});

describe('validate', () => {
  it('POST /api/validate gives the findings `stagecraft validate --json` gives, cross-file ones located', async () => {
    const text = (await json('GET', '/api/skills/blog_writer')).body.version.files['skill.md'];
    const files = { 'skill.md': text };
    const r = await json('POST', '/api/validate', { files });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.ok, false);
    const missing = r.body.diagnostics.filter((d: { rule: string }) => d.rule === 'module_not_found');
    assert.equal(missing.length, 2);
    const line = text.split('\n').findIndex((l: string) => l.includes('module: ./rendering.py')) + 1;
    assert.equal(missing[0].line, line);
    assert.ok(missing[0].column > 1);
    // the same bundle on disk, through the CLI
    const dir = mkdtempSync(path.join(tmpdir(), 'sc-validate-'));
    writeFileSync(path.join(dir, 'skill.md'), text);
    let out = '';
    const code = await main(['validate', dir, '--json'], { out: (s) => void (out += s), err: () => undefined, stdin: async () => '' });
    assert.equal(code, 1);
    const cli = JSON.parse(out);
    const strip = (ds: { file: string }[]) => ds.map(({ file: _f, ...d }) => d);
    assert.deepEqual(strip(r.body.diagnostics), strip(cli.diagnostics));
    assert.deepEqual([r.body.errors, r.body.warnings], [cli.errors, cli.warnings]);
  });
});

describe('runs', () => {
  it('POST /api/runs starts a stored version and answers with its id; GET /api/runs/<id> follows it to its caller artifact; events page', async () => {
    const started = await json('POST', '/api/runs', { skill: 'summarize', input: { path: 'report.txt' } });
    assert.equal(started.status, 201, started.text);
    assert.match(started.body.runId, /^run_/);
    const run = await waitForEnd(started.body.runId);
    assert.equal(run.status, 'completed', JSON.stringify(run.error));
    assert.equal(run.skill, 'summarize');
    assert.equal(run.version, (await json('GET', '/api/skills/summarize')).body.latestVersion);
    assert.equal(run.output.redactions, 2);
    assert.equal(run.steps.length > 0, true);
    const page = await json('GET', `/api/runs/${run.runId}/events?limit=3`);
    assert.deepEqual(page.body.events.map((e: { seq: number }) => e.seq), [1, 2, 3]);
    assert.equal(page.body.next, 3);
    const rest = await json('GET', `/api/runs/${run.runId}/events?after=3&limit=1000`);
    assert.equal(rest.body.events.at(-1).type, 'run_completed');
    assert.equal(rest.body.next, null);
    isError(await json('GET', `/api/runs/${run.runId}/events?limit=0`), 400, 'usage');
    const listed = await json('GET', '/api/runs?skill=summarize&status=completed');
    assert.ok(listed.body.runs.some((x: { runId: string }) => x.runId === run.runId));
    isError(await json('GET', '/api/runs?status=sleeping'), 400, 'usage');
    // a run of a deleted skill stays inspectable
    await json('POST', '/api/skills', { name: 'short_lived', from: 'summarize' });
    const doomed = await json('POST', '/api/runs', { skill: 'short_lived', input: { path: 'report.txt' } });
    await waitForEnd(doomed.body.runId);
    await raw('DELETE', '/api/skills/short_lived');
    assert.equal((await json('GET', `/api/runs/${doomed.body.runId}`)).body.status, 'completed');
  });

  it('refuses before recording: an input against the entry contract (located), an invalid skill, an unknown model or skill', async () => {
    const bad = await json('POST', '/api/runs', { skill: 'research_brief', input: { question: 7 } });
    isError(bad, 422, 'input_invalid');
    assert.equal(bad.body.error.details.errors[0].pointer, '/question');
    const files = (await json('GET', '/api/skills/fresh_one')).body.version.files;
    const broken = await json('POST', '/api/skills/fresh_one/versions', { files: { ...files, 'skill.md': files['skill.md'].replace('entry: answer', 'entry: nowhere') } });
    assert.equal(broken.body.validation.ok, false);
    const invalid = await json('POST', '/api/runs', { skill: 'fresh_one', input: {} });
    isError(invalid, 422, 'skill_invalid');
    assert.ok(invalid.body.error.details.diagnostics.some((d: { line: number; rule: string }) => d.rule === 'unknown_phase' && d.line > 1));
    isError(await json('POST', '/api/runs', { skill: 'summarize', input: {}, model: 'openai' }), 400, 'usage');
    isError(await json('POST', '/api/runs', { skill: 'summarize', input: {}, model: 'scripted:../../etc/passwd' }), 400, 'usage');
    isError(await json('POST', '/api/runs', { skill: 'nobody_here', input: {} }), 404, 'skill_not_found');
    isError(await json('GET', '/api/runs/run_nope'), 404, 'run_not_found');
    // a bundle whose model script is malformed is the sender's to fix (a 422, located), not a model endpoint that failed (502)
    const summarizeFiles = (await json('GET', '/api/skills/summarize')).body.version.files;
    const script = await json('POST', '/api/runs', { skill: 'summarize', input: { path: 'report.txt' }, files: { ...summarizeFiles, 'model.yaml': 'steps: 1\n' } });
    isError(script, 422, 'model_script_invalid');
    assert.match(script.body.error.message, /model\.yaml:1:1: .*Fix the model script; no turn was served\./);
  });

  it('a malformed model script is named by its path in the bundle (line:col), never by the server\'s copy of it under its data dir', async () => {
    const files = (await json('GET', '/api/skills/summarize')).body.version.files;
    for (const [name, model] of [['model.yaml', undefined], ['scripts/turns.yaml', 'scripted:scripts/turns.yaml']] as const) {
      const r = await json('POST', '/api/runs', { skill: 'summarize', input: { path: 'report.txt' }, files: { ...files, [name]: 'steps: 1\n' }, ...(model ? { model } : {}) });
      isError(r, 422, 'model_script_invalid');
      assert.ok(r.body.error.message.startsWith(`${name}:1:1: `), r.text);
      assert.equal(r.body.error.details.file, name, r.text);
      for (const leak of [app.dataDir, '/bundles/']) assert.ok(!r.text.includes(leak), `${leak} in ${r.text}`);
    }
  });
});

describe('the edge: bodies, origins, hosts', () => {
  it('a body over the cap is 413 before it is parsed, declared or chunked', async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 'a');
    isError(await raw('POST', '/api/validate', { body: big, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
    isError(await raw('POST', '/api/validate', { body: big, chunked: true, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }), 413, 'payload_too_large');
  });

  it('bad bodies are 400s that say where: not JSON (line and column), empty, the wrong shape', async () => {
    const r = await raw('POST', '/api/validate', { body: '{\n  "files": {,}\n}', headers: { 'content-type': 'application/json' } });
    isError(r, 400, 'invalid_request');
    assert.match(r.body.error.message, /line 2, column/);
    isError(await raw('POST', '/api/validate', { body: '', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    const extra = await json('POST', '/api/validate', { files: {}, surprise: 1 });
    isError(extra, 400, 'invalid_request');
    assert.match(extra.body.error.message, /surprise/);
  });

  it('a cross-site request that changes state is 403; the same origin passes', async () => {
    const body = { files: { 'skill.md': '---\n---\n' } };
    isError(await json('POST', '/api/validate', body, { origin: 'http://evil.example' }), 403, 'cross_origin');
    isError(await json('POST', '/api/validate', body, { 'sec-fetch-site': 'cross-site' }), 403, 'cross_origin');
    isError(await json('DELETE', '/api/skills/summarize', undefined, { origin: 'http://evil.example' }), 403, 'cross_origin');
    assert.equal((await json('POST', '/api/validate', body, { origin: app.url })).status, 200);
    assert.equal((await json('GET', '/api/skills', undefined, { origin: 'http://evil.example' })).status, 200, 'reads are not state changes');
  });

  it('a request naming another host (DNS rebinding) is 403 without a token', async () => {
    isError(await raw('GET', '/api/skills', { headers: { host: `evil.example:${app.port}` } }), 403, 'host_not_allowed');
    assert.equal((await raw('GET', '/api/skills', { headers: { host: `localhost:${app.port}` } })).status, 200);
  });

  it('nothing a caller sends gets a 500', async () => {
    const bodies = ['null', '[]', '"x"', '{"files": null}', '{"files": {"skill.md": "\\u0000"}}', '{"name": {"$gt": ""}}', '{"skill": "", "input": []}', '{"skill": "summarize", "input": {}, "version": "zz"}'];
    for (const route of ['/api/skills', '/api/skills/summarize/versions', '/api/validate', '/api/runs']) {
      for (const body of bodies) {
        const r = await raw('POST', route, { body, headers: { 'content-type': 'application/json' } });
        assert.ok(r.status < 500, `${route} ${body}: ${r.status} ${r.text}`);
      }
    }
    for (const p of ['/api/skills/%00', '/api/skills/a/versions/%2e%2e', '/api/runs/..%2f..', '/api/runs/x/events?after=-1']) {
      const r = await raw('GET', p);
      assert.ok(r.status < 500, `${p}: ${r.status} ${r.text}`);
    }
  });
});

describe('requests no route serves', () => {
  it('a path under /api/ that is no route is a JSON 404, and a method a route does not take a JSON 405 with Allow', async () => {
    for (const p of ['/api/nope', '/api/runs/run_x/items/1/2', '/api/skills/summarize/versions/abcdef/nope']) {
      const r = await raw('GET', p);
      isError(r, 404, 'route_not_found');
      assert.match(r.body.error.message, /API table of the README/);
    }
    const put = await raw('PUT', '/api/health');
    isError(put, 405, 'method_not_allowed');
    assert.equal(put.headers.allow, 'GET, HEAD, OPTIONS');
    assert.match(put.body.error.message, /^PUT is not a method of \/api\/health: it takes GET\./);
    // a named segment is its own route, not a run id: /api/runs/import takes POST alone
    const get = await raw('GET', '/api/runs/import');
    isError(get, 405, 'method_not_allowed');
    assert.equal(get.headers.allow, 'POST, OPTIONS');
    isError(await raw('DELETE', '/api/runs/run_x/events'), 405, 'method_not_allowed');
    // what the routes serve is as it was: HEAD of a GET, OPTIONS, a run id beside the named routes
    assert.equal((await raw('HEAD', '/api/health')).status, 200);
    assert.equal((await raw('OPTIONS', '/api/skills')).status, 204);
    assert.equal((await raw('GET', '/api/runs/stats')).status, 200);
    isError(await raw('GET', '/api/runs/run_x'), 404, 'run_not_found');
  });

  it('/api itself is the API\'s: a JSON 404, not the 404 page; a trailing slash is still a 308 to the path without it', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const r = await raw(method, '/api');
      isError(r, 404, 'route_not_found');
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.match(r.body.error.message, /^No route of the API is at "\/api": .*API table of the README/);
    }
    for (const [p, to] of [['/api/', '/api'], ['/api/x/', '/api/x']]) {
      const r = await raw('GET', p);
      assert.equal(r.status, 308, `${p}: ${r.status} ${r.text}`);
      assert.equal(r.headers.location, to);
    }
  });
});
