// What a run ended with: the caller artifact when it completed; the error —
// code, message, where — and the report's verdict when it failed or aborted.
import type { ReactNode } from 'react';
import type { ReportView, RunErrorView, RunView } from '@/lib/views';
import styles from './RunLive.module.css';

/** the keys of an error that say where in the run it happened (RunLocation), in reading order */
const WHERE_KEYS = ['phase', 'round', 'rung', 'stage', 'capability', 'step', 'stepType', 'op', 'position'] as const;
const WHERE_LABELS: Record<string, string> = { stepType: 'step type' };

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
        {run.report ? <RunReport report={run.report} errorMessage={null} /> : null}
      </section>
    );
  }
  return <RunErrorCard status={run.status} error={run.error} report={run.report} />;
}

/** the report's verdict: outcome, why it was blocked, which stage failed, how many rounds */
function RunReport({ report, errorMessage }: { report: ReportView; errorMessage: string | null }) {
  const stage = report.failed_stage;
  return (
    <dl className={styles.report}>
      <div>
        <dt>Outcome</dt>
        <dd>
          <span className="status" data-status={report.outcome}>
            {report.outcome}
          </span>
        </dd>
      </div>
      {typeof report.rounds === 'number' ? (
        <div>
          <dt>Model rounds</dt>
          <dd>{report.rounds}</dd>
        </div>
      ) : null}
      {report.changed_paths.length ? (
        <div>
          <dt>Changed</dt>
          <dd className={styles.mono}>{report.changed_paths.join(', ')}</dd>
        </div>
      ) : null}
      {report.block_reason ? (
        <div className={styles.wide}>
          <dt>Block reason</dt>
          <dd>{report.block_reason === errorMessage ? <span className={styles.dim}>the error above</span> : report.block_reason}</dd>
        </div>
      ) : null}
      {stage ? (
        <div className={styles.wide}>
          <dt>Failed stage</dt>
          <dd>
            <span className={styles.mono}>
              {stage.phase} › {stage.rung} › {stage.stage}
            </span>{' '}
            <span className={styles.dim}>
              ({stage.capability}, round {stage.round})
            </span>
            <span className={styles.stageError}>{stage.error}</span>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

function RunErrorCard({ status, error, report }: { status: string; error: RunErrorView | null; report: ReportView | null }) {
  const where = error ? WHERE_KEYS.filter((k) => error[k] !== undefined && error[k] !== null) : [];
  const rest = error
    ? Object.fromEntries(Object.entries(error).filter(([k]) => k !== 'code' && k !== 'message' && !(WHERE_KEYS as readonly string[]).includes(k)))
    : {};
  return (
    <section className={styles.errorCard} aria-labelledby="run-error-title" data-status={status}>
      <h2 id="run-error-title">{status === 'aborted' ? 'The run was aborted' : 'The run failed'}</h2>
      {error ? (
        <>
          <p className={styles.errorMessage}>
            <code className={styles.errorCode}>{error.code}</code> {error.message}
          </p>
          {where.length ? (
            <dl className={styles.where}>
              {where.map((k) => (
                <div key={k}>
                  <dt>{WHERE_LABELS[k] ?? k}</dt>
                  <dd>{String(error[k])}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          {Object.keys(rest).length ? (
            <details className={styles.errorDetails}>
              <summary>Details</summary>
              <pre className={styles.json} tabIndex={0}>
                {pretty(rest)}
              </pre>
            </details>
          ) : null}
        </>
      ) : (
        <p className={styles.errorMessage}>No error was recorded with this run.</p>
      )}
      {report ? <RunReport report={report} errorMessage={error?.message ?? null} /> : null}
    </section>
  );
}
