// Signing in with the token (the sign-in page's form, or JSON `{token}`): a session cookie holding an
// HMAC of the token, HttpOnly and SameSite=Strict; DELETE signs out.
import { errorJson, json, route, readTextBody, RequestInvalidError } from '@/lib/server/http/route';
import { SESSION_COOKIE, safeNextPath, securitySettings, sessionValue, tokenMatches } from '@/lib/server/http/security';
import { UsageError } from '@/lib/kernel/errors';

export const dynamic = 'force-dynamic';

export const POST = route({}, async ({ req }) => {
  // only a path of this app, as the browser will resolve it: never an open redirect
  const safeNext = (next: string | null) => safeNextPath(next, new URL(req.url).origin);
  const settings = securitySettings(process.env);
  const form = (req.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded');
  let token: string | null = null;
  let next: string | null = null;
  const text = await readTextBody(req, 16 * 1024);
  if (form) {
    const params = new URLSearchParams(text);
    token = params.get('token');
    next = params.get('next');
  } else {
    let body: { token?: unknown } | null = null;
    try {
      body = JSON.parse(text) as { token?: unknown } | null;
    } catch {
      body = null;
    }
    if (!body || typeof body.token !== 'string') throw new RequestInvalidError('Send {"token": "<STAGECRAFT_TOKEN>"}.');
    token = body.token;
  }
  if (!settings.token) throw new UsageError('This Stagecraft has no token (STAGECRAFT_TOKEN is not set): there is nothing to sign in to.');
  const ok = token !== null && tokenMatches(token, settings);
  if (!ok) {
    if (form) return new Response(null, { status: 303, headers: { location: `/signin?failed=1&next=${encodeURIComponent(safeNext(next))}` } });
    return errorJson(401, 'unauthorized', 'That is not the token this Stagecraft was started with.');
  }
  const cookie = `${SESSION_COOKIE}=${sessionValue(settings.token)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${60 * 60 * 24 * 30}`;
  if (form) return new Response(null, { status: 303, headers: { location: safeNext(next), 'set-cookie': cookie } });
  return json({ ok: true }, 200, { 'set-cookie': cookie });
});

export const DELETE = route({}, async () => new Response(null, { status: 204, headers: { 'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` } }));
