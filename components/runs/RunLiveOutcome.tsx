// What a run ended with when it completed: the caller artifact; while it has no outcome yet, what it
// is doing meanwhile. A failed or aborted run's error is the inspector's (the report, Details).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { RunView } from '@/lib/views';
import { formatDuration } from '@/components/common/format';
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

/** how long nothing was recorded before it counts as a wait worth saying (a quick step's gap is not) */
export const QUIET_AFTER_MS = 3000;

/** a wait in whole seconds, as it ticks: `7 s`, then `1 min 5 s` */
const waited = (ms: number) => (ms < 60_000 ? `${Math.floor(ms / 1000)} s` : formatDuration(ms));

/**
 * How long the run has recorded nothing, ticking each second once it passes QUIET_AFTER_MS: a step is
 * recorded when it ends, so a long one (a slow code step, a model call) is otherwise a page that
 * looks stuck. Measured on the server's clock (the run's times are the server's): the browser's
 * offset from it is taken once, from the time the server rendered the page (`now`), so the wait
 * said is short by the time the page took to load, never long.
 */
function QuietFor({ lastAt, eventCount, now }: { lastAt: number; eventCount: number; now: number }) {
  const [quiet, setQuiet] = useState<number | null>(null);
  // taken once, when the page first runs here: `now` is when the server rendered it, not when a later event came
  const offset = useRef<number | null>(null);
  useEffect(() => {
    offset.current ??= Date.now() - now;
    const skew = offset.current;
    const tick = () => setQuiet(Date.now() - skew - lastAt);
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [lastAt, now]);
  if (quiet === null || quiet < QUIET_AFTER_MS) return null;
  return (
    <>
      {' '}
      Nothing recorded for {waited(quiet)} (since event {eventCount}): a step is recorded only when it ends, so a slow code step or a model
      call looks like this.
    </>
  );
}

export function RunLiveOutcome({ run, now }: { run: RunView; now: number }) {
  if (run.status === 'queued') {
    return (
      <Pending>
        The run is queued, waiting for its turn: the app drives a limited number of runs at once (<code>STAGECRAFT_MAX_RUNS</code>), or{' '}
        <code>stagecraft worker</code> processes drive them (<code>STAGECRAFT_WORKERS=external</code>). It starts on its own when one is free.
      </Pending>
    );
  }
  if (run.status === 'running') {
    return (
      <Pending>
        The run is in progress.
        <QuietFor lastAt={run.lastEventAt ?? run.updatedAt} eventCount={run.eventCount} now={now} /> Its caller artifact, or its error, appears here when it ends.
      </Pending>
    );
  }
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
