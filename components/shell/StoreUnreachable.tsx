// What every page shows while the store cannot be reached (the database restarting or down).
import styles from './StoreUnreachable.module.css';

export function StoreUnreachable({ reason }: { reason: string }) {
  return (
    <main className={styles.page}>
      <div role="alert" className={styles.panel}>
        <h1>The store is unreachable</h1>
        <p>Stagecraft cannot reach its database right now, so this page cannot be shown. Nothing is lost: runs wait, and go on when it is back.</p>
        <p className={styles.detail}>{reason}</p>
        <p>Check that the Postgres server is running, then reload this page.</p>
      </div>
    </main>
  );
}
