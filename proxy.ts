// Every request passes here before any page or route: who may reach the app (lib/server/http/security.ts).
import { NextResponse, type NextRequest } from 'next/server';
import { errorJson } from './lib/server/http/route';
import { judgeRequest, securitySettings } from './lib/server/http/security';

export function proxy(request: NextRequest) {
  const verdict = judgeRequest({ method: request.method, pathname: request.nextUrl.pathname, headers: request.headers }, securitySettings(process.env));
  if (verdict.allow) return NextResponse.next();
  if (verdict.signIn && request.method === 'GET') {
    const url = request.nextUrl.clone();
    url.pathname = '/signin';
    url.search = `?next=${encodeURIComponent(request.nextUrl.pathname + request.nextUrl.search)}`;
    return NextResponse.redirect(url, 303);
  }
  return errorJson(verdict.status, verdict.code, verdict.message);
}

export const config = {
  // the build's static files are the same for everyone; everything else is judged
  matcher: ['/((?!_next/static|_next/image).*)'],
};
