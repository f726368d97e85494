// Any address with nothing behind it: an unknown page, skill or run.
import Link from 'next/link';
import styles from '@/components/home/NotFound.module.css';

export const metadata = { title: 'Not found · Stagecraft' };

export default function NotFound() {
  return (
    <main className={styles.page}>
      <p className={styles.code}>404</p>
      <h1>Nothing here</h1>
      <p>There is no page at this address. The skill or run it pointed to may have been renamed or deleted, or the link is mistyped.</p>
      <div className={styles.actions}>
        <Link href="/" className="btn btn-primary">
          Go to Skills
        </Link>
        <Link href="/runs" className="btn">
          See recent runs
        </Link>
      </div>
    </main>
  );
}
