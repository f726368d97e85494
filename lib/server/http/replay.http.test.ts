// The replay, fork, compare, regression, export and import routes against the
// built app, as a client meets them: answers checked against their views by
// the app, bad input as 4xx with a located message, the import's size cap, and
// imported code refused where no sandbox works (the app is started with
// STAGECRAFT_SANDBOX=off, so that is here).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type AppServer } from './testing/app-server';
import { documentHash, partHash } from '../runs/export-run';
import { VERSION_HINT } from '../../views';

let app: AppServer;
before(async () => {
  app = await startApp({ env: { STAGECRAFT_SANDBOX: 'off' } });
});
after(async () => {
  await app?.stop();
});

type Reply = { status: number; headers: Headers; body: any; text: string };

async function call(method: string, p: string, body?: unknown, raw?: string): Promise<Reply> {
  const r = await fetch(`${app.url}${p}`, {
    method,
    headers: body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {},
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await r.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: r.status, headers: r.headers, body: parsed, text };
}

function isError(r: Reply, status: number, code: string, message?: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body?.error?.code, code, r.text);
  if (message) assert.match(r.body.error.message, message);
}

async function ended(runId: string): Promise<any> {
  for (let i = 0; i < 240; i++) {
    const r = await call('GET', `/api/runs/${runId}`);
    if (r.body?.status && r.body.status !== 'running') return r.body;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(`run ${runId} did not end`);
}

async function summarizeRun(): Promise<string> {
  const started = await call('POST', '/api/runs', { skill: 'summarize', input: { path: 'report.txt' } });
  assert.equal(started.status, 201, started.text);
  const run = await ended(started.body.runId);
  assert.equal(run.status, 'completed', JSON.stringify(run.error));
  return run.runId;
}

describe('replay, fork, compare, regress, export, import over HTTP', () => {
  it('replay: identical for the version it ran, diverged at the changed step for a new one; bad input is a 4xx', async () => {
    const runId = await summarizeRun();
    const same = await call('POST', `/api/runs/${runId}/replay`);
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.verdict, 'identical');
    const replay = await call('GET', `/api/runs/${same.body.replayRunId}`);
    assert.equal(replay.body.kind, 'replay');
    assert.equal(replay.body.parentRunId, runId);
    const parent = await call('GET', `/api/runs/${runId}`);
    assert.ok(parent.body.derivedRuns.some((d: { runId: string; kind: string }) => d.runId === same.body.replayRunId && d.kind === 'replay'), 'the run links its replays');

    const latest = (await call('GET', '/api/skills/summarize')).body.version;
    const files = { ...latest.files, 'sanitize.py': latest.files['sanitize.py'].replace('"[email]"', '"[e-mail]"') };
    assert.equal((await call('POST', '/api/skills/summarize/versions', { files })).status, 201);
    const changed = await call('POST', `/api/runs/${runId}/replay`, {});
    assert.equal(changed.body.verdict, 'diverged');
    assert.equal(changed.body.divergences[0].position, '__post__/0');
    assert.ok(changed.body.divergences[0].diff, 'a structural diff');
    const pinned = await call('POST', `/api/runs/${runId}/replay`, { version: latest.hash });
    assert.equal(pinned.body.verdict, 'identical');

    // the check against past runs: the saved version changes them; the editor's text restoring the file changes none
    const reg = await call('POST', '/api/skills/summarize/regress', {});
    assert.equal(reg.status, 200, reg.text);
    assert.ok(reg.body.changed.some((c: { runId: string }) => c.runId === runId));
    const unsaved = await call('POST', '/api/skills/summarize/regress', { files: { 'sanitize.py': latest.files['sanitize.py'] } });
    assert.equal(unsaved.body.unsaved, true);
    assert.equal(unsaved.body.changed.filter((c: { runId: string }) => c.runId === runId).length, 0);
    assert.equal((await call('POST', '/api/skills/summarize/versions', { files: latest.files })).status, 201); // back as it was

    // a version that could never be a hash is the caller's mistake, said with what to send; a well-formed one no version has is not found
    const WHAT_TO_SEND = /version: must be a version's hash or a unique prefix of it: 6 to 64 hex digits .*GET \/api\/skills\/<name>\/versions/;
    for (const version of ['zz', 'nothex', 'abc', '', 7]) isError(await call('POST', `/api/runs/${runId}/replay`, { version }), 400, 'invalid_request', WHAT_TO_SEND);
    isError(await call('POST', `/api/runs/${runId}/replay`, { version: 'f'.repeat(64) }), 404, 'version_not_found', /no version of it has that hash/);
    isError(await call('POST', '/api/skills/summarize/regress', { version: 'zz' }), 400, 'invalid_request', WHAT_TO_SEND);
    isError(await call('POST', '/api/runs', { skill: 'summarize', input: { path: 'report.txt' }, version: 'zz' }), 400, 'invalid_request', WHAT_TO_SEND);
    // in a path too (it was a 404 there, as if a well-formed hash no version has), with the same words
    for (const [method, p] of [['GET', '/api/skills/summarize/versions/zz'], ['GET', '/api/skills/summarize/versions/nothex'], ['POST', '/api/skills/summarize/versions/abc/restore']]) {
      const r = await call(method, p);
      isError(r, 400, 'usage');
      assert.ok(r.body.error.message.includes(`hash is not as this route expects: ${VERSION_HINT}`), r.text);
    }
    isError(await call('GET', `/api/skills/summarize/versions/${'f'.repeat(64)}`), 404, 'version_not_found');
    isError(await call('POST', `/api/skills/summarize/versions/${'f'.repeat(12)}/restore`), 404, 'version_not_found');
    isError(await call('POST', `/api/runs/${runId}/replay`, { bogus: 1 }), 400, 'invalid_request');
    isError(await call('POST', '/api/runs/run_nope/replay'), 404, 'run_not_found');
    isError(await call('POST', '/api/skills/nobody/regress'), 404, 'skill_not_found');
  });

  it('fork: an edited finish artifact runs to the end; an edit that does not fit is refused before anything runs', async () => {
    const runId = await summarizeRun();
    const point = await call('GET', `/api/runs/${runId}/fork?at=__post__`);
    assert.equal(point.status, 200, point.text);
    assert.equal(point.body.editable, true);
    assert.equal(point.body.value.paragraphs.length, 2, 'the finish artifact, as the fork would start from it');
    assert.deepEqual(point.body.schema?.required, ['paragraphs'], "the finish artifact's schema: what the fork editor checks as it is typed");
    const turn = await call('GET', `/api/runs/${runId}/fork?at=summarize/r2/model`);
    assert.equal(turn.body.kind, 'model');
    assert.equal(turn.body.schema, null, 'a model turn has no schema of its own (the fork checks its shape)');
    isError(await call('GET', `/api/runs/${runId}/fork`), 400, 'usage', /\?at=POSITION/);
    const forked = await call('POST', `/api/runs/${runId}/fork`, { at: '__post__', set: [{ path: 'paragraphs[0]', value: 'Edited, mail x@example.org.' }] });
    assert.equal(forked.status, 201, forked.text);
    assert.equal(forked.body.parentRunId, runId);
    assert.equal(forked.body.forkPoint, '__post__');
    const run = await ended(forked.body.runId);
    assert.equal(run.status, 'completed');
    assert.equal(run.kind, 'fork');
    assert.equal(run.output.paragraphs[0], 'Edited, mail [email].');

    isError(await call('POST', `/api/runs/${runId}/fork`, { at: 'summarize/r9/model' }), 422, 'fork_point_unknown', /Positions of the run: input, summarize/);
    isError(await call('POST', `/api/runs/${runId}/fork`, { at: '__post__', value: 3 }), 422, 'fork_edit_invalid', /must be a JSON object/);
    // a model turn's edited finish is held to its phase's contract, as the finish artifact is at __post__
    isError(
      await call('POST', `/api/runs/${runId}/fork`, { at: 'summarize/r2/model', set: [{ path: 'finish.paragraphs', value: [] }] }),
      422,
      'fork_edit_invalid',
      /does not fit: finish does not satisfy the output schema of phase summarize, the contract the model's own finish is held to: \/paragraphs must NOT have fewer than 1 items/,
    );
    // the API's words: its field `set`, not the CLI's flag `--set`
    const badPath = await call('POST', `/api/runs/${runId}/fork`, { at: '__post__', set: [{ path: 'paragraphs[', value: 'x' }] });
    isError(badPath, 422, 'fork_edit_invalid', /^set paragraphs\[: not a path/);
    assert.doesNotMatch(badPath.body.error.message, /--set/);
    isError(await call('POST', `/api/runs/${runId}/fork`, {}), 400, 'usage', /it completed/);
    // the fork (and the rerun from a failed step, the same route with `{}`) and its fork point say what a version is as replay does
    const WHAT_TO_SEND = /version.*must be a version's hash or a unique prefix of it: 6 to 64 hex digits/;
    isError(await call('POST', `/api/runs/${runId}/fork`, { version: 'zz' }), 400, 'invalid_request', WHAT_TO_SEND);
    isError(await call('POST', `/api/runs/${runId}/fork`, { at: '__post__', version: 'zz' }), 400, 'invalid_request', WHAT_TO_SEND);
    isError(await call('GET', `/api/runs/${runId}/fork?at=__post__&version=zz`), 400, 'usage', WHAT_TO_SEND);
    isError(await call('POST', `/api/runs/${runId}/fork`, { at: '__post__', version: 'f'.repeat(64) }), 404, 'version_not_found');
    isError(await call('GET', `/api/runs/${runId}/fork?at=__post__&version=${'f'.repeat(64)}`), 404, 'version_not_found');

    const cmp = await call('GET', `/api/compare?a=${runId}&b=${forked.body.runId}`);
    assert.equal(cmp.status, 200, cmp.text);
    assert.equal(cmp.body.identical, false);
    assert.equal(cmp.body.firstDivergence.position, '__post__/0');
    assert.ok(cmp.body.rows.every((r: { position: string }) => typeof r.position === 'string'));
    const baseline = await call('GET', `/api/compare?b=${forked.body.runId}`);
    assert.equal(baseline.status, 200, baseline.text);
    assert.equal(typeof baseline.body.baselineRunId, 'string');
    isError(await call('GET', '/api/compare'), 400, 'usage');
    isError(await call('GET', `/api/compare?a=run_nope&b=${runId}`), 404, 'run_not_found');
  });

  it('export and import: a download with content hashes; idempotent; tampered, oversized and imported code without a sandbox refused', async () => {
    const runId = await summarizeRun();
    const exp = await call('GET', `/api/runs/${runId}/export`);
    assert.equal(exp.status, 200);
    assert.match(exp.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="${runId}.json"`));
    assert.equal(exp.body.format, 'stagecraft.run-export');
    const again = await call('POST', '/api/runs/import', undefined, exp.text);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body.imported.map((i: { status: string }) => i.status), ['unchanged']);
    isError(await call('POST', '/api/runs/import', undefined, exp.text.replace('"formatVersion": 1', '"formatVersion": 7').replace('"formatVersion":1', '"formatVersion":7')), 422, 'export_invalid', /newer Stagecraft/);
    isError(await call('POST', '/api/runs/import', undefined, exp.text.replace('Ticket volume', 'Ticket Volume')), 422, 'export_invalid', /changed after export/);
    isError(await call('POST', '/api/runs/import', undefined, 'x'.repeat(33 * 1024 * 1024)), 413, 'payload_too_large');

    // someone else's run, with a version of its own: imported, but its code is not run without a sandbox
    const doc = exp.body;
    const id = `${runId}-theirs`;
    const other = {
      ...doc,
      skill: { ...doc.skill, files: { ...doc.skill.files, 'sanitize.py': `${doc.skill.files['sanitize.py']}\n# theirs\n` } },
      run: { ...doc.run, id },
      events: doc.events.map((e: object) => ({ ...e, runId: id })),
      traces: doc.traces.map((t: object) => ({ ...t, runId: id })),
      artifacts: doc.artifacts.map((a: object) => ({ ...a, runId: id })),
    };
    const { bundleHash } = await import('../../store/skills');
    other.skill.version = bundleHash(other.skill.files);
    other.hashes = { run: partHash(other.run), events: partHash(other.events), traces: partHash(other.traces), artifacts: partHash(other.artifacts) };
    other.sha256 = documentHash(other);
    const imported = await call('POST', '/api/runs/import', other);
    assert.equal(imported.status, 201, imported.text);
    assert.deepEqual(imported.body.imported[0], { runId: id, skill: 'summarize', version: other.skill.version, status: 'imported' });
    isError(await call('POST', `/api/runs/${id}/replay`, { version: other.skill.version }), 403, 'untrusted_code', /imported skill version .*cannot be sandboxed here/);
    // importing an old run does not make its version the skill's latest
    assert.notEqual((await call('GET', '/api/skills/summarize')).body.version.hash, other.skill.version);
  });
});
