/**
 * Signing in with the token (`POST /api/session`): from the sign-in page's
 * form, a 303 to where the user was going (an app path only: never an open
 * redirect), or back to the form saying it failed; from JSON, `{ok: true}` or
 * a 401. Either way the session cookie holds an HMAC of the token, never the
 * token, HttpOnly and SameSite=Strict.
 */
import { UsageError } from '../../kernel/errors';
import { errorJson, json } from './route';
import { SESSION_COOKIE, safeNextPath, securitySettings, sessionValue, tokenMatches } from './security';

const SESSION_DAYS = 30;

export function signIn(body: { token: string; next?: string }, opts: { isForm: boolean; origin: string; env?: Record<string, string | undefined> }): Response {
  // only a path of this app, as the browser will resolve it (`/%5Cevil.example` is not): never an open redirect
  const safeNext = (next: string | undefined) => safeNextPath(next, opts.origin);
  const settings = securitySettings(opts.env ?? process.env);
  if (!settings.token) throw new UsageError('This Stagecraft has no token (STAGECRAFT_TOKEN is not set): there is nothing to sign in to.');
  if (!tokenMatches(body.token, settings)) {
    if (opts.isForm) return new Response(null, { status: 303, headers: { location: `/signin?failed=1&next=${encodeURIComponent(safeNext(body.next))}` } });
    return errorJson(401, 'unauthorized', 'That is not the token this Stagecraft was started with.');
  }
  const cookie = `${SESSION_COOKIE}=${sessionValue(settings.token)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${60 * 60 * 24 * SESSION_DAYS}`;
  if (opts.isForm) return new Response(null, { status: 303, headers: { location: safeNext(body.next), 'set-cookie': cookie } });
  return json({ ok: true }, 200, { 'set-cookie': cookie });
}

export const signOutCookie = () => `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
