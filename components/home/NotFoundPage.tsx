'use client';
// The page for an address with nothing behind it. Under /runs/<id> and /skills/<name> it names what
// was looked for (from the address: a not-found page is given no params) and offers that list first.
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { notFoundWords, type NotFoundKind } from './not-found-words';
import styles from './NotFound.module.css';

export function NotFoundPage({ kind }: { kind: NotFoundKind }) {
  const { text, first } = notFoundWords(kind, usePathname());
  const skills = (
    <Link key="skills" href="/" className={first === 'skills' ? 'btn btn-primary' : 'btn'}>
      Go to Skills
    </Link>
  );
  const runs = (
    <Link key="runs" href="/runs" className={first === 'runs' ? 'btn btn-primary' : 'btn'}>
      See recent runs
    </Link>
  );
  return (
    <main className={styles.page}>
      <p className={styles.code}>404</p>
      <h1>Nothing here</h1>
      <p>{text}</p>
      <div className={styles.actions}>{first === 'runs' ? [runs, skills] : [skills, runs]}</div>
    </main>
  );
}
