/**
 * Who may reach the app. The app runs the code of the bundles it stores, so
 * reaching it must not mean running code:
 *
 * - by default it listens on loopback only (`STAGECRAFT_HOST`, default
 *   127.0.0.1); listening anywhere else needs `STAGECRAFT_TOKEN`, and the
 *   server refuses to start without it (`listenProblem`);
 * - without a token, a request must name a loopback host (`Host:`), which also
 *   turns away DNS-rebinding pages that reach 127.0.0.1 under another name;
 * - with a token, every page and route needs it: `Authorization: Bearer
 *   <token>`, or the session cookie the sign-in page sets (an HMAC of the
 *   token, never the token itself);
 * - a request that changes state must come from the app's own origin: a
 *   browser's cross-site POST (Origin or Sec-Fetch-Site say so) gets 403;
 * - no other site may frame it (`frame-ancestors 'none'`, `X-Frame-Options:
 *   DENY`: two clicks in a hidden frame must not delete a skill), pages run
 *   only the scripts the server sent with this response's nonce (a strict
 *   CSP), and a sign-in's `next` only ever leads back into the app.
 *
 * Owns: these decisions, as pure functions of the request and the settings
 * (proxy.ts applies them to every request). Does not: serve the sign-in page.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** sent with every request a run's http/get makes (lib/server/net/http-get.ts); a Stagecraft app refuses any request that carries it */
export const RUN_FETCH_HEADER = 'x-stagecraft-run-fetch';

export const SESSION_COOKIE = 'stagecraft_session';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export type SecuritySettings = { token: string | null };

export function securitySettings(env: Record<string, string | undefined>): SecuritySettings {
  return { token: env.STAGECRAFT_TOKEN ? env.STAGECRAFT_TOKEN : null };
}

/** `127.0.0.1:3000` → `127.0.0.1`, `[::1]:3000` → `::1` */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const i = h.lastIndexOf(':');
  return i > 0 && h.indexOf(':') === i ? h.slice(0, i) : h;
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return LOOPBACK.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || h.endsWith('.localhost');
}

/** Why the server must not start listening on `host`, or null. */
export function listenProblem(host: string, settings: SecuritySettings): string | null {
  if (isLoopback(host) || settings.token) return null;
  return (
    `refusing to listen on ${host}: the app runs the code of the skills it stores, so anyone who can reach it could run code. ` +
    `Set STAGECRAFT_TOKEN to a long random secret (every page and API call will then need it), or listen on 127.0.0.1 (unset STAGECRAFT_HOST).`
  );
}

/** The session cookie's value for a token: an HMAC, so the cookie does not carry the token itself. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('stagecraft-session-v1').digest('hex');
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Whether `given` is the token (compared in constant time). */
export function tokenMatches(given: string, settings: SecuritySettings): boolean {
  return settings.token !== null && sameSecret(given, settings.token);
}

/** A cookie's value; one that is not valid percent-encoding is taken as it is (it then matches nothing), never an error. */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      const raw = part.slice(i + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return null;
}

/**
 * Where a sign-in may send the browser next: a path of this app, as the browser will read it —
 * `new URL(next, origin)` must keep the app's origin (`//evil.example`, `/\evil.example`,
 * `/%5Cevil.example` once decoded, `https://evil.example` do not). Anything else is `/`. What
 * comes back is the normalized path, never the raw text.
 */
export function safeNextPath(next: string | null | undefined, origin: string): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/';
  try {
    const base = new URL(origin);
    const url = new URL(next, base);
    return url.origin === base.origin ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

/** A fresh nonce for one page response's scripts. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy of a page. Scripts: only those carrying this response's nonce (Next
 * puts it on its own) and what they load (`'strict-dynamic'`), never an inline or injected one.
 * `'unsafe-eval'` stays because the studio checks skill.md as it is typed with ajv, which compiles
 * each JSON Schema to a function (as the server does). Monaco's workers come from this origin.
 * Styles may be inline: Monaco and React Flow set them at run time.
 */
export function pageCsp(nonce: string, isDev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${isDev ? ' ws:' : ''}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * A cross-origin isolated page (`crossOriginIsolated`): opened in a browsing context group of its
 * own (COOP) and loading nothing of another origin that does not agree to it (COEP; the app loads
 * nothing of another origin at all). It is what lets the studio share memory with its analysis
 * worker (SharedArrayBuffer: a keystroke's diagram change drawn in its letter's frame,
 * components/studio/analysis/shared-reply.ts). On every answer, not only the studio's: a page is
 * isolated by the headers of the document it was loaded as, and the studio is mostly reached by a
 * client-side navigation from another page (the skills list), which keeps that document.
 */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/** What every response of the app carries: never framed, never sniffed, cross-origin isolated; an answer that is not a page runs nothing at all. */
export function securityHeaders(csp: string | null): Record<string, string> {
  return {
    'content-security-policy': csp ?? "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    ...ISOLATION_HEADERS,
  };
}

export function isAuthorized(headers: Headers, settings: SecuritySettings): boolean {
  if (!settings.token) return true;
  const auth = headers.get('authorization');
  if (auth?.toLowerCase().startsWith('bearer ') && sameSecret(auth.slice(7).trim(), settings.token)) return true;
  const session = cookieValue(headers.get('cookie'), SESSION_COOKIE);
  return session !== null && sameSecret(session, sessionValue(settings.token));
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOfOrigin(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/** A request that changes state and, by what the browser says of it, comes from another site than the one it is sent to. */
export function isCrossSite(method: string, headers: Headers): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const origin = headers.get('origin');
  if (origin !== null) return hostOfOrigin(origin) !== (headers.get('host') ?? '').toLowerCase();
  const site = headers.get('sec-fetch-site');
  // no Origin and no Sec-Fetch-Site: not a browser (curl, the CLI, scripts), which cannot be made to send cookies cross-site
  return site !== null && site !== 'same-origin' && site !== 'none';
}

export type Verdict =
  | { allow: true }
  | { allow: false; status: 401 | 403; code: string; message: string; /** a page request without a session goes to sign in */ signIn?: boolean };

/**
 * What is wrong with a path's percent-encoding (`/runs/%E0%A4%A`), or null when every segment decodes:
 * the router would throw on it while matching, an answer of 500 for what the caller typed.
 */
export function badPathEncoding(pathname: string): string | null {
  for (const segment of pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      return `The address ${JSON.stringify(pathname.slice(0, 120))} is not valid percent-encoding (at ${JSON.stringify(segment.slice(0, 40))}): check the URL.`;
    }
  }
  return null;
}

/** Whether a path is the API's (`/api` itself too), answered in JSON, rather than a page's. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** Paths that must answer without a token: the sign-in page and where it posts. */
export const PUBLIC_PATHS = ['/signin', '/api/session'];

export function judgeRequest(req: { method: string; pathname: string; headers: Headers }, settings: SecuritySettings): Verdict {
  // a run's http/get, done by a Stagecraft server or CLI (lib/server/net/http-get.ts), never reaches this app: a run must not
  // read or change the store through its API, which answers loopback without a token
  if (req.headers.has(RUN_FETCH_HEADER)) {
    return {
      allow: false,
      status: 403,
      code: 'run_fetch_refused',
      message: `This request came from a run's http/get (it carries ${RUN_FETCH_HEADER}): a run may not reach a Stagecraft app.`,
    };
  }
  const host = req.headers.get('host') ?? '';
  if (!settings.token && !isLoopback(hostnameOf(host))) {
    return {
      allow: false,
      status: 403,
      code: 'host_not_allowed',
      message: `This Stagecraft listens for 127.0.0.1 only, and this request names the host "${host}". Open it as http://127.0.0.1 or http://localhost, or start it with STAGECRAFT_TOKEN set to accept other names.`,
    };
  }
  if (isCrossSite(req.method, req.headers)) {
    return {
      allow: false,
      status: 403,
      code: 'cross_origin',
      message: `A ${req.method} from another site (${req.headers.get('origin') ?? req.headers.get('sec-fetch-site')}) is refused: requests that change state must come from this app's own pages.`,
    };
  }
  if (PUBLIC_PATHS.includes(req.pathname) || isAuthorized(req.headers, settings)) return { allow: true };
  return {
    allow: false,
    status: 401,
    code: 'unauthorized',
    message: 'This Stagecraft needs its token: send `Authorization: Bearer <STAGECRAFT_TOKEN>`, or sign in at /signin.',
    signIn: !isApiPath(req.pathname),
  };
}
