// Signing in with the token this Stagecraft was started with: a plain form, so it
// works before any script loads; POST /api/session sets the session cookie.
import { safeNextPath } from '@/lib/server/http/security';
import styles from './signin.module.css';

export const metadata = { title: 'Sign in · Stagecraft' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const hasFailed = query.failed === '1';
  // a path of this app only (POST /api/session checks it again against the request's own origin)
  const next = safeNextPath(typeof query.next === 'string' ? query.next : null, 'http://stagecraft.invalid');
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1>Sign in</h1>
        <p className={styles.lede}>
          This Stagecraft was started with <code>STAGECRAFT_TOKEN</code>: enter that token to continue.
        </p>
        {hasFailed ? (
          <p className={styles.error} role="alert">
            That token is not right. Check the value of <code>STAGECRAFT_TOKEN</code> the server was started with.
          </p>
        ) : null}
        <form method="post" action="/api/session" className={styles.form}>
          <input type="hidden" name="next" value={next} />
          <label htmlFor="signin-token">Token</label>
          <input
            id="signin-token"
            name="token"
            type="password"
            className="input"
            autoComplete="current-password"
            required
            autoFocus
            aria-invalid={hasFailed ? true : undefined}
          />
          <button type="submit" className={`btn btn-primary ${styles.submit}`}>
            Sign in
          </button>
        </form>
      </div>
    </main>
  );
}
