// Who may reach the app, against the built app: listening beyond loopback
// needs STAGECRAFT_TOKEN (the start refuses without it); with the token every
// page and route needs it — as a bearer token, or the cookie the sign-in page
// sets — and cross-site requests that change state are still refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { failedStart, startApp, type AppServer } from './testing/app-server';

const TOKEN = 'a-long-random-secret-for-tests-only';
let app: AppServer;
before(async () => {
  app = await startApp({ host: '0.0.0.0', env: { STAGECRAFT_TOKEN: TOKEN } });
});
after(async () => {
  await app?.stop();
});

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${app.url}${p}`, { headers, redirect: 'manual' });

describe('npm start refuses to listen beyond loopback without a token, or without a sandbox', () => {
  const start = (extra: Record<string, string>) => {
    const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_HOST: '0.0.0.0', NEXT_TELEMETRY_DISABLED: '1', ...extra };
    if (!extra.STAGECRAFT_TOKEN) delete env.STAGECRAFT_TOKEN;
    return spawnSync(process.execPath, ['scripts/start.mjs'], { env, encoding: 'utf8', timeout: 30_000 });
  };
  it('without a token: exits 1 and says why and what to do', () => {
    const r = start({});
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0/);
    assert.match(r.stderr, /STAGECRAFT_TOKEN/);
  });
  it('with a token but code steps unsandboxed (STAGECRAFT_SANDBOX=off): exits 1, naming the sandbox', () => {
    const r = start({ STAGECRAFT_TOKEN: TOKEN, STAGECRAFT_SANDBOX: 'off' });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0: code steps run WITHOUT a sandbox/);
  });
  it('an unknown STAGECRAFT_SANDBOX is refused with the choices', () => {
    const r = start({ STAGECRAFT_HOST: '127.0.0.1', STAGECRAFT_SANDBOX: 'sometimes' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /STAGECRAFT_SANDBOX="sometimes": use off, auto .* or required/);
  });
});

// a Docker image starts the app with `next start -H 0.0.0.0`, not npm start: without a token it served
// anyone who sent `Host: 127.0.0.1` (the proxy's loopback check reads the Host header, which a client writes)
describe('next start itself refuses to listen beyond loopback without a token', () => {
  it('exits 1 before it opens the store, saying why and what to do', async () => {
    const env: Record<string, string> = {};
    const failed = await failedStart({ host: '0.0.0.0', env });
    assert.ok(failed, 'the app started on 0.0.0.0 without a token');
    assert.match(failed, /^the app exited \(1\) before answering/);
    assert.match(failed, /refusing to listen on 0\.0\.0\.0: the app runs the code of the skills it stores/);
    assert.match(failed, /Set STAGECRAFT_TOKEN/);
  });
});

describe('with STAGECRAFT_TOKEN', () => {
  it('an API call without the token is 401 with what to send; a wrong token too', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }, { cookie: 'stagecraft_session=forged' }] as Record<string, string>[]) {
      const r = await get('/api/skills', headers);
      assert.equal(r.status, 401);
      const body = (await r.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'unauthorized');
      assert.match(body.error.message, /Authorization: Bearer/);
    }
    // /api itself is the API's too: a 401 in JSON, not the sign-in page's redirect; with the token, a JSON 404
    const bare = await get('/api');
    assert.equal(bare.status, 401);
    assert.equal(((await bare.json()) as { error: { code: string } }).error.code, 'unauthorized');
    const authorized = await get('/api', { authorization: `Bearer ${TOKEN}` });
    assert.equal(authorized.status, 404);
    assert.equal(((await authorized.json()) as { error: { code: string } }).error.code, 'route_not_found');
  });

  it('a page without the token sends the browser to sign in, and back', async () => {
    const r = await get('/skills/summarize');
    assert.equal(r.status, 303);
    assert.match(r.headers.get('location') ?? '', /\/signin\?next=%2Fskills%2Fsummarize$/);
    assert.equal((await get('/signin')).status, 200);
  });

  it('the bearer token opens every route and page', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await get('/api/skills', auth)).status, 200);
    assert.equal((await get('/', auth)).status, 200);
    assert.equal((await get('/skills/summarize', auth)).status, 200);
  });

  it('signing in sets a session cookie (not the token itself) that opens the app; a wrong token goes back to the form', async () => {
    const form = (token: string) =>
      fetch(`${app.url}/api/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
        body: new URLSearchParams({ token, next: '/skills/summarize' }).toString(),
      });
    const wrong = await form('nope');
    assert.equal(wrong.status, 303);
    assert.match(wrong.headers.get('location') ?? '', /\/signin\?failed=1/);
    assert.equal(wrong.headers.get('set-cookie'), null);
    const ok = await form(TOKEN);
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), '/skills/summarize');
    const cookie = ok.headers.get('set-cookie') ?? '';
    assert.match(cookie, /stagecraft_session=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict/);
    assert.ok(!cookie.includes(TOKEN));
    const session = cookie.split(';')[0];
    assert.equal((await get('/api/skills', { cookie: session })).status, 200);
    assert.equal((await get('/skills/summarize', { cookie: session })).status, 200);
  });

  it('a sign-in form over its 16 KB is 413 saying the form\'s own limit, not the JSON API\'s', async () => {
    const body = new URLSearchParams({ token: 'x'.repeat(20 * 1024), next: '/' }).toString();
    for (const chunked of [false, true]) {
      const r = await fetch(`${app.url}/api/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
        // a stream is sent chunked, with no length declared: refused as it is read
        body: chunked ? new Blob([body]).stream() : body,
        ...(chunked ? { duplex: 'half' } : {}),
      } as RequestInit);
      assert.equal(r.status, 413);
      const { error } = (await r.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'payload_too_large');
      assert.match(error.message, /over the limit of 16384\. A form holds only a few short fields .*at most 16 KB\./, error.message);
      assert.doesNotMatch(error.message, /5 MB|bundle/, error.message);
    }
  });

  it('a cross-site POST is 403 even with a valid session', async () => {
    const r = await fetch(`${app.url}/api/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' },
      body: JSON.stringify({ files: { 'skill.md': '' } }),
    });
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'cross_origin');
  });
});

describe('the web edge', () => {
  const auth = { authorization: `Bearer ${TOKEN}` };

  it("a request from a run's http/get is 403 whatever it carries: the token, a page or the API", async () => {
    const { hostFetch, RUN_FETCH_HEADER } = await import('../net/http-get');
    for (const p of ['/api/runs', '/api/skills', '/']) {
      const r = await get(p, { ...auth, [RUN_FETCH_HEADER]: '1' });
      assert.equal(r.status, 403, p);
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'run_fetch_refused', p);
    }
    // the host's own fetch, as a run's http/get does it on this machine (loopback is reachable by default)
    const r = await hostFetch()(`${app.url}/api/runs`);
    assert.equal(r.status, 403);
    assert.match(await r.text(), /run_fetch_refused/);
  });

  it('a malformed session cookie is a 401 (a page: sign in), never a 500', async () => {
    for (const cookie of ['stagecraft_session=%E0%A4%A', 'stagecraft_session=%', 'stagecraft_session=%zz; other=%']) {
      assert.equal((await get('/api/skills', { cookie })).status, 401, cookie);
      assert.equal((await get('/skills/summarize', { cookie })).status, 303, cookie);
    }
  });

  it('sign-in never sends the browser off-site: next=/%5Cevil.example and its kin lead to this app', async () => {
    const page = await (await get('/signin?next=/%5Cevil.example')).text();
    assert.match(page, /name="next" value="\/"/);
    for (const next of ['/\\evil.example', '//evil.example', 'https://evil.example/', '/\t/evil.example']) {
      const r = await fetch(`${app.url}/api/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
        body: new URLSearchParams({ token: TOKEN, next }).toString(),
      });
      assert.equal(r.status, 303);
      const location = r.headers.get('location') ?? '';
      assert.equal(new URL(location, app.url).origin, new URL(app.url).origin, `${JSON.stringify(next)} → ${location}`);
    }
  });

  it('every answer refuses framing (pages, the API, errors, redirects, static files); pages allow only their own nonce’s scripts', async () => {
    const answers = [await get('/', auth), await get('/docs/skill-md', auth), await get('/nowhere', auth), await get('/api/skills', auth), await get('/api/skills'), await get('/skills/summarize'), await get('/signin')];
    const html = await (await get('/', auth)).text();
    const asset = html.match(/\/_next\/static\/[^"]+\.js/)?.[0];
    assert.ok(asset, 'the page loads a script of the build');
    answers.push(await get(asset));
    for (const r of answers) {
      assert.equal(r.headers.get('x-frame-options'), 'DENY', r.url);
      assert.match(r.headers.get('content-security-policy') ?? (r.url.includes('/_next/') ? "frame-ancestors 'none'" : ''), /frame-ancestors 'none'/, r.url);
      // cross-origin isolated, the studio and the build's scripts (its workers) too: the studio's analysis replies through shared memory
      assert.equal(r.headers.get('cross-origin-opener-policy'), 'same-origin', r.url);
      assert.equal(r.headers.get('cross-origin-embedder-policy'), 'require-corp', r.url);
    }
    const csps = [];
    for (const p of ['/', '/docs/skill-md', '/runs']) {
      const r = await get(p, auth);
      const csp = r.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce, `${p}: ${csp}`);
      assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
      csps.push(nonce);
      // every script of the page carries that nonce: nothing else would run
      const body = await r.text();
      const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.ok(scripts.length > 0);
      for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`), `${p}: ${s}`);
    }
    assert.equal(new Set(csps).size, csps.length, 'a fresh nonce per response');
  });
});
