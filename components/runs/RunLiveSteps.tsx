'use client';
// The processor steps of a run and its stage traces, compact; failed traces first.
import { useState } from 'react';
import type { StepView, TraceView } from '@/lib/views';
import { StatusPill } from '@/components/common/StatusPill';
import { formatDuration } from '@/components/common/format';
import styles from './RunLive.module.css';

const TRACES_SHOWN = 25;
const TRACE_ORDER: Record<string, number> = { failed: 0, refused: 1 };

function stepErrorText(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    const e = error as { code?: unknown; message: string };
    return typeof e.code === 'string' ? `${e.code}: ${e.message}` : e.message;
  }
  return JSON.stringify(error);
}

export function RunLiveSteps({ steps }: { steps: StepView[] }) {
  return (
    <section className={styles.card} aria-labelledby="run-steps-title">
      <div className={styles.cardHead}>
        <h2 id="run-steps-title">Processor steps</h2>
        <span className={styles.count}>{steps.length}</span>
      </div>
      {steps.length === 0 ? (
        <p className={styles.none}>No processor steps recorded.</p>
      ) : (
        <ol className={styles.steps}>
          {steps.map((s) => {
            const error = stepErrorText(s.error);
            return (
              <li key={s.position}>
                <StatusPill status={s.status} />
                <span className={styles.mono}>{s.position}</span>
                <span className={styles.stepType}>{s.type}</span>
                {error ? (
                  <span className={styles.stepError} title={error}>
                    {error}
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

export function RunLiveTraces({ traces }: { traces: TraceView[] }) {
  const [isAllShown, setIsAllShown] = useState(false);
  const ordered = [...traces].sort((a, b) => (TRACE_ORDER[a.status] ?? 9) - (TRACE_ORDER[b.status] ?? 9) || a.seq - b.seq);
  const shown = isAllShown ? ordered : ordered.slice(0, TRACES_SHOWN);
  const troubled = traces.filter((t) => t.status === 'failed' || t.status === 'refused').length;
  return (
    <section className={styles.card} aria-labelledby="run-traces-title">
      <div className={styles.cardHead}>
        <h2 id="run-traces-title">Stage traces</h2>
        <span className={styles.count}>{traces.length}</span>
        {troubled ? <span className={styles.troubled}>{troubled} failed or refused, listed first</span> : null}
      </div>
      {traces.length === 0 ? (
        <p className={styles.none}>No capability stages ran.</p>
      ) : (
        <>
          <div className={styles.tracesWrap}>
            <table className={styles.traces} aria-label="Stage traces">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Phase</th>
                  <th scope="col">Round</th>
                  <th scope="col">Stage</th>
                  <th scope="col">Capability</th>
                  <th scope="col">Took</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((t) => (
                  <tr key={t.seq} data-status={t.status}>
                    <td>
                      <StatusPill status={t.status} />
                    </td>
                    <td className={styles.mono}>{t.phase}</td>
                    <td>{t.round}</td>
                    <td>
                      <span className={styles.mono}>
                        {t.rung} › {t.stage}
                      </span>
                      {t.error ? (
                        <span className={styles.stepError} title={t.error}>
                          {t.error}
                        </span>
                      ) : null}
                    </td>
                    <td className={styles.mono}>{t.capability}</td>
                    <td className={styles.dim}>{formatDuration(t.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {ordered.length > TRACES_SHOWN ? (
            <button type="button" className={`btn btn-sm ${styles.more}`} onClick={() => setIsAllShown((v) => !v)} aria-expanded={isAllShown}>
              {isAllShown ? `Show the first ${TRACES_SHOWN}` : `Show all ${ordered.length} traces`}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
