// http/get is done by the server, with a URL the run chose: a code step (in the sandbox, which has no
// network) hands the host a URL of a metadata service, of the server's own loopback — here a stand-in
// for a service there, which sees the request marked as a run's (a Stagecraft app refuses it:
// security.test.ts) — or of a server that sends without end. Through the path every run takes (a run
// of a bundle folder, on the embedded store).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunOutcome } from '../../kernel/runner';
import { openStore, type OpenedStore } from '../../store';
import { attackBundle, pyStep as py } from '../escape/attack-bundle';
import { hostFor, type Host } from '../host';
import { startSkillRun } from '../runs/start-run';
import { HTTP_GET_MAX_BYTES, isLinkLocalAddress, isPrivateAddress, RUN_FETCH_HEADER } from './http-get';

let root: string;
let store: OpenedStore;
let api: Server;
let apiUrl: string;
let apiHits = 0;
/** the run-fetch mark the stand-in API last saw */
let lastMark: string | undefined;
let endless: Server;
let endlessUrl: string;

const listen = (s: Server) => new Promise<string>((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as { port: number }).port}`)));

before(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'sc-http-get-'));
  store = await openStore({ dataDir: path.join(root, 'db') });
  api = createServer((req, res) => {
    apiHits++;
    lastMark = req.headers[RUN_FETCH_HEADER] as string | undefined;
    res.end(JSON.stringify({ runs: [{ id: 'run_secret', input: { apiKey: 'sk-from-the-store' } }] }));
  });
  apiUrl = await listen(api);
  endless = createServer((_req, res) => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  });
  endlessUrl = await listen(endless);
});
after(async () => {
  api?.closeAllConnections();
  endless?.closeAllConnections();
  api?.close();
  endless?.close();
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const hostWith = (env: Record<string, string>): Host => hostFor({ store, skills: store.skills, env: { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data'), ...env }, cwd: root });

/** a run whose code step picks the URL, then asks the host for it */
function run(host: Host, name: string, url: string): Promise<RunOutcome> {
  return startSkillRun(host, {
    input: {},
    bundle: attackBundle(root, name, {
      files: { 'attack.py': `def pick(v):\n    return {"url": ${JSON.stringify(url)}}\n` },
      ops: 'http/get',
      effects: 'net',
      steps: [py('pick'), '    - { type: run_op, op: http/get, args: { url: "${url}" }, into: body }'].join('\n'),
    }),
  }).then(async (o) => o);
}

const failure = (o: RunOutcome) => String(o.error?.message ?? '');

describe('http/get through the host', () => {
  it('by default a metadata service (link-local) is refused, by address and v4-mapped; this host is reached, each request marked as a run\'s (a Stagecraft app refuses it)', async () => {
    const host = hostWith({});
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/', 'http://[fe80::1]/']) {
      const o = await run(host, 'metadata', url);
      assert.equal(o.status, 'aborted', `${url}: ${JSON.stringify(o)}`);
      assert.match(failure(o), /is link-local, where cloud metadata services/, url);
      assert.match(failure(o), /STAGECRAFT_HTTP_PRIVATE=allow/, url);
    }
    const hitsBefore = apiHits;
    const o = await run(host, 'local_service', `${apiUrl}/api/runs`);
    assert.equal(o.status, 'completed', failure(o));
    assert.equal(apiHits, hitsBefore + 1);
    assert.equal(lastMark, '1', 'the request says it is a run\'s (security.ts judgeRequest refuses it)');
  });

  it("STAGECRAFT_HTTP_PRIVATE=deny: this host is refused (by address, by a name, v4-mapped) and nothing of it reaches the run; =allow reaches link-local too, redirects followed", async () => {
    const host = hostWith({ STAGECRAFT_HTTP_PRIVATE: 'deny' });
    const redirect = createServer((_req, res) => res.writeHead(302, { location: `${apiUrl}/api/runs` }).end());
    const redirectUrl = await listen(redirect);
    const hitsBefore = apiHits;
    try {
      for (const url of [`${apiUrl}/api/runs`, apiUrl.replace('127.0.0.1', 'localhost') + '/api/runs', `http://[::ffff:127.0.0.1]:${new URL(apiUrl).port}/`, 'http://169.254.169.254/latest/meta-data/']) {
        const o = await run(host, 'ssrf', url);
        assert.equal(o.status, 'aborted', `${url}: ${JSON.stringify(o)}`);
        assert.match(failure(o), /is not an address on the public internet/, url);
        assert.doesNotMatch(JSON.stringify(await store.readEvents(o.runId)), /sk-from-the-store/);
      }
      assert.equal(apiHits, hitsBefore, 'the API was reached');
      // the redirect server is on loopback too: allowed here, it sends the request on to the API
      const o = await run(hostWith({ STAGECRAFT_HTTP_PRIVATE: 'allow' }), 'ssrf_redirect_allowed', redirectUrl);
      assert.equal(o.status, 'completed', failure(o));
      assert.equal(apiHits, hitsBefore + 1, 'with STAGECRAFT_HTTP_PRIVATE=allow, loopback is reached (the opt-in works)');
      assert.equal(lastMark, '1', 'the redirect\'s hop is marked too');
    } finally {
      redirect.close();
    }
  });

  it('a data: URL is read without any network', async () => {
    const o = await run(hostWith({ STAGECRAFT_HTTP_PRIVATE: 'deny' }), 'data_url', 'data:text/plain,hello%20there');
    assert.equal(o.status, 'completed', failure(o));
    assert.equal((o.output as { body?: unknown }).body, 'hello there');
  });

  it('an answer without end is cut at the cap: the step fails, the server read at most the cap', async () => {
    const before = process.memoryUsage().rss;
    const o = await run(hostWith({}), 'endless', `${endlessUrl}/`);
    assert.equal(o.status, 'aborted', failure(o));
    assert.match(failure(o), new RegExp(`over ${HTTP_GET_MAX_BYTES} bytes`));
    assert.ok(process.memoryUsage().rss - before < 200 * 1024 * 1024, `rss grew ${process.memoryUsage().rss - before} bytes`);
  });

  it('which addresses are private', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:7f00:1', 'not-an-ip']) assert.equal(isPrivateAddress(a), true, a);
    for (const a of ['1.1.1.1', '8.8.8.8', '2606:4700:4700::1111']) assert.equal(isPrivateAddress(a), false, a);
    for (const a of ['169.254.169.254', '169.254.0.1', 'fe80::1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', 'not-an-ip']) assert.equal(isLinkLocalAddress(a), true, a);
    for (const a of ['127.0.0.1', '10.0.0.1', '::1', '::ffff:127.0.0.1', '1.1.1.1']) assert.equal(isLinkLocalAddress(a), false, a);
  });
});
