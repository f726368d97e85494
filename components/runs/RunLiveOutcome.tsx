// What a run ended with when it completed: the caller artifact; while it has no outcome yet, what it
// is doing meanwhile. A failed or aborted run's error is the inspector's (the report, Details).
import type { ReactNode } from 'react';
import type { RunView } from '@/lib/views';
import styles from './RunLive.module.css';

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** While there is no outcome yet: what the run is doing meanwhile. */
function Pending({ children }: { children: ReactNode }) {
  return (
    <section className={styles.pending} aria-labelledby="run-outcome-title">
      <h2 id="run-outcome-title" className="visually-hidden">
        Outcome
      </h2>
      <span className={styles.spinner} aria-hidden="true" />
      <p>{children}</p>
    </section>
  );
}

export function RunLiveOutcome({ run }: { run: RunView }) {
  if (run.status === 'queued') {
    return (
      <Pending>
        The run is queued, waiting for its turn: the app drives a limited number of runs at once (<code>STAGECRAFT_MAX_RUNS</code>), or{' '}
        <code>stagecraft worker</code> processes drive them (<code>STAGECRAFT_WORKERS=external</code>). It starts on its own when one is free.
      </Pending>
    );
  }
  if (run.status === 'running') return <Pending>The run is in progress. Its caller artifact, or its error, appears here when it ends.</Pending>;
  if (run.status === 'completed') {
    return (
      <section className={styles.card} aria-labelledby="run-artifact-title">
        <div className={styles.cardHead}>
          <h2 id="run-artifact-title">Caller artifact</h2>
        </div>
        <pre className={styles.artifact} aria-label="Caller artifact" tabIndex={0}>
          {pretty(run.output)}
        </pre>
      </section>
    );
  }
  // a failed or aborted run: the Run report says what ended it, and Details shows its error once, with its stack
  return null;
}
