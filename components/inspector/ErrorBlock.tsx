// An error as the views carry it: its code and message, where in the bundle it was raised (a link
// to that file and line in the studio, at the version the run ran), and its stack in monospace;
// then what the code printed on stderr last, when it printed any (readable: its colour codes dropped,
// its other controls shown as `\x1b`…).
import Link from 'next/link';
import { readableText } from '@/lib/kernel/terminal-text';
import type { ErrorInfoView } from '@/lib/views';
import { studioHref } from './timeline-index';
import styles from './Inspector.module.css';

export function ErrorBlock({ error, skill, version }: { error: ErrorInfoView; skill: string; version: string | null }) {
  return (
    <div className={styles.error} role="group" aria-label="Error">
      <p className={styles.errorMessage}>
        {error.code ? <code className={styles.errorCode}>{error.code}</code> : null} {error.message}
      </p>
      {error.where ? (
        <p className={styles.where}>
          raised at{' '}
          <Link href={studioHref(skill, version, { file: error.where.file, line: error.where.line })} className={styles.mono}>
            {error.where.file}:{error.where.line}
          </Link>
        </p>
      ) : null}
      {error.stack ? (
        <pre className={styles.stack} aria-label="Stack" tabIndex={0}>
          {error.stack}
        </pre>
      ) : null}
      {error.stderr ? (
        <>
          <p className={styles.where}>Last stderr</p>
          <pre className={styles.stack} aria-label="Last stderr" tabIndex={0}>
            {readableText(error.stderr)}
          </pre>
        </>
      ) : null}
    </div>
  );
}
