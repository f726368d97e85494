// What every page shows while the store cannot be reached (the database restarting or down, or the
// embedded store's directory unusable), naming the store in use and what to check for it.
import styles from './StoreUnreachable.module.css';

type Props = {
  reason: string;
  /** the store in use, in words: its data directory, or the Postgres database and server (no password) */
  where: string;
  isEmbedded: boolean;
};

export function StoreUnreachable({ reason, where, isEmbedded }: Props) {
  return (
    <main className={styles.page}>
      <div role="alert" className={styles.panel}>
        <h1>The store is unreachable</h1>
        <p>
          Stagecraft cannot reach its database, {where}, right now, so this page cannot be shown. Nothing is lost: runs wait, and go on when it is
          back.
        </p>
        <p className={styles.detail}>{reason}</p>
        <p>
          {isEmbedded
            ? 'Check that this directory can be written and that no other Stagecraft process holds it (or set STAGECRAFT_DATA_DIR to another one), then reload this page.'
            : 'Check that this Postgres server is running and reachable, and that DATABASE_URL names it, then reload this page.'}
        </p>
      </div>
    </main>
  );
}
