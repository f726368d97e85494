// The web edge's pure decisions: a malformed cookie is no error, `next` only leads back into the
// app (as the browser resolves it), and the headers every answer carries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badPathEncoding, cookieValue, judgeRequest, pageCsp, RUN_FETCH_HEADER, safeNextPath, securityHeaders } from './security';

test('a session cookie that is not valid percent-encoding is a cookie that matches nothing, never an exception', () => {
  assert.equal(cookieValue('stagecraft_session=%E0%A4%A', 'stagecraft_session'), '%E0%A4%A');
  assert.equal(cookieValue('a=1; stagecraft_session=%zz%', 'stagecraft_session'), '%zz%');
  assert.equal(cookieValue('stagecraft_session=ab%20c', 'stagecraft_session'), 'ab c');
  const headers = new Headers({ host: '127.0.0.1:3000', cookie: 'stagecraft_session=%E0%A4%A' });
  const v = judgeRequest({ method: 'GET', pathname: '/api/skills', headers }, { token: 'secret' });
  assert.equal(v.allow, false);
  assert.equal((v as { status: number }).status, 401);
});

test('next is a path of this app as the browser resolves it; anything that leaves the origin is /', () => {
  const origin = 'http://127.0.0.1:3000';
  const cases: [string | null, string][] = [
    ['/skills/summarize', '/skills/summarize'],
    ['/runs?status=failed#top', '/runs?status=failed#top'],
    ['/%5Cevil.example', '/%5Cevil.example'],
    ['/\\evil.example', '/'],
    ['//evil.example', '/'],
    ['/\\/evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['evil.example', '/'],
    ['', '/'],
    [null, '/'],
    ['/a/../../b', '/b'],
  ];
  for (const [next, want] of cases) {
    const got = safeNextPath(next, origin);
    assert.equal(got, want, JSON.stringify(next));
    assert.equal(new URL(got, origin).origin, origin);
  }
});

test('every answer refuses to be framed; a page runs only scripts with its nonce', () => {
  const csp = pageCsp('bm9uY2U=');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic'/);
  assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /base-uri 'none'/);
  const page = securityHeaders(csp);
  assert.equal(page['x-frame-options'], 'DENY');
  const api = securityHeaders(null);
  assert.equal(api['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
  assert.equal(api['x-frame-options'], 'DENY');
  assert.equal(api['x-content-type-options'], 'nosniff');
  // cross-origin isolated: the studio shares memory with its analysis worker (components/studio/analysis/shared-reply.ts)
  for (const h of [page, api]) {
    assert.equal(h['cross-origin-opener-policy'], 'same-origin');
    assert.equal(h['cross-origin-embedder-policy'], 'require-corp');
  }
});

test("a request marked as a run's http/get is refused whatever it carries (a token, loopback, any path): a run never reads or changes the store through the app", () => {
  for (const [settings, extra] of [
    [{ token: null }, {}],
    [{ token: 'secret' }, { authorization: 'Bearer secret' }],
  ] as const) {
    for (const pathname of ['/api/runs', '/api/skills/summarize', '/', '/signin']) {
      const headers = new Headers({ host: '127.0.0.1:3000', [RUN_FETCH_HEADER]: '1', ...extra });
      const v = judgeRequest({ method: 'GET', pathname, headers }, settings);
      assert.equal(v.allow, false, pathname);
      assert.equal((v as { status: number; code: string }).status, 403);
      assert.equal((v as { code: string }).code, 'run_fetch_refused');
    }
    // the same request without the mark is let in
    const headers = new Headers({ host: '127.0.0.1:3000', ...extra });
    assert.equal(judgeRequest({ method: 'GET', pathname: '/api/runs', headers }, settings).allow, true);
  }
});

test('a path whose percent-encoding does not decode is named as the caller’s mistake; every other path passes', () => {
  for (const bad of ['/runs/%E0%A4%A', '/api/skills/%E0', '/api/runs/run_x/items/%zz', '/skills/%']) {
    const said = badPathEncoding(bad);
    assert.ok(said, bad);
    assert.match(said, /not valid percent-encoding/);
  }
  for (const good of ['/', '/runs/run_abc', '/skills/summarize', '/api/runs/a%20b', '/docs/skill-md', '/%5Cevil.example', '/runs/%E2%9C%93']) {
    assert.equal(badPathEncoding(good), null, good);
  }
});
