// Every request passes here before any page or route: who may reach the app, and what its
// answers allow a browser to do with them (lib/server/http/security.ts).
import { NextResponse, type NextRequest } from 'next/server';
import { errorJson } from './lib/server/http/route';
import { unservedApiRequest } from './lib/server/http/unserved';
import { badPathEncoding, isApiPath, judgeRequest, newNonce, pageCsp, securityHeaders, securitySettings } from './lib/server/http/security';
import { registeredStoreStatus, STORE_STATUS_HEADER, storeStatusHeaderValue } from './lib/server/ops/store-status-registry';

/** a page (not a route, a build file or a file of public/): while the store is down it says so, as a 503 */
const isPageRequest = (method: string, pathname: string) => (method === 'GET' || method === 'HEAD') && !pathname.startsWith('/_next/') && !/\.[A-Za-z0-9]+$/.test(pathname);

export async function proxy(request: NextRequest) {
  // `/api` itself is the API's too: a JSON 404 as any path under it no route serves, not the 404 page
  const isPage = !isApiPath(request.nextUrl.pathname);
  // a page's scripts carry this response's nonce: Next reads it from the request's CSP while it renders
  const csp = isPage ? pageCsp(newNonce(), process.env.NODE_ENV === 'development') : null;
  const headers = securityHeaders(csp);
  const verdict = judgeRequest({ method: request.method, pathname: request.nextUrl.pathname, headers: request.headers }, securitySettings(process.env));
  const badPath = badPathEncoding(request.nextUrl.pathname);
  const unserved = isPage ? null : unservedApiRequest(request.method, request.nextUrl.pathname);
  let response: Response;
  if (badPath) {
    // the router would throw decoding it (a bare 500): the caller's mistake, said as one
    response = isPage ? new Response(`400 Bad Request\n\n${badPath}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } }) : errorJson(400, 'invalid_request', badPath);
  } else if (verdict.allow && unserved) {
    // the router's own answers say nothing: the 404 page's HTML, a 405 with no body
    response = errorJson(unserved.status, unserved.code, unserved.message);
    if (unserved.allow) response.headers.set('allow', unserved.allow);
  } else if (verdict.allow) {
    const forward = new Headers(request.headers);
    if (csp) forward.set('content-security-policy', csp);
    // the page is rendered all the same (the layout says the store is unreachable): its status says it too.
    // The answer goes on to the layout with the request, so the page does not ask again; only this sets
    // that header (a client's is dropped: it could make a down store look up, or an up one down)
    forward.delete(STORE_STATUS_HEADER);
    const check = isPage && isPageRequest(request.method, request.nextUrl.pathname) ? registeredStoreStatus() : null;
    const status = check ? await check() : null;
    if (status) forward.set(STORE_STATUS_HEADER, storeStatusHeaderValue(status));
    response = NextResponse.next({ request: { headers: forward }, ...(status && !status.reachable ? { status: 503 } : {}) });
  } else if (verdict.signIn && request.method === 'GET') {
    const url = request.nextUrl.clone();
    url.pathname = '/signin';
    url.search = `?next=${encodeURIComponent(request.nextUrl.pathname + request.nextUrl.search)}`;
    response = NextResponse.redirect(url, 303);
  } else {
    response = errorJson(verdict.status, verdict.code, verdict.message);
  }
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

export const config = {
  // the build's static files are the same for everyone (next.config.mjs gives them their headers); everything else is judged
  matcher: ['/((?!_next/static|_next/image).*)'],
};
