// Signing in with the token (the sign-in page's form, or JSON `{token}`): a session cookie holding an
// HMAC of the token, HttpOnly and SameSite=Strict; DELETE signs out.
import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { signIn, signOutCookie } from '@/lib/server/http/sign-in';

export const dynamic = 'force-dynamic';

export const POST = handle(routes.signIn, async ({ body, req }) => signIn(body, { isForm: (req.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded'), origin: new URL(req.url).origin }));

export const DELETE = handle(routes.signOut, async () => new Response(null, { status: 204, headers: { 'set-cookie': signOutCookie() } }));
