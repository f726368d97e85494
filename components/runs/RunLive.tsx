'use client';
/**
 * One run, live. The server renders the run as it stood (no flash of empty
 * state); while it is `running` this polls `GET /api/runs/<id>` and redraws
 * until it ends, then shows what it ended with: the caller artifact, or the
 * error and where it happened.
 */
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { RunView } from '@/lib/views';
import { api } from '@/lib/client/api';
import { RelativeTime } from '@/components/common/RelativeTime';
import { StatusPill } from '@/components/common/StatusPill';
import { formatDuration, modelLabel } from '@/components/common/format';
import { RunLiveOutcome } from './RunLiveOutcome';
import { RunLiveSteps, RunLiveTraces } from './RunLiveSteps';
import styles from './RunLive.module.css';

const POLL_MS = 500;
const MAX_BACKOFF_MS = 5000;

export function RunLive({ initial, now }: { initial: RunView; now: number }) {
  const [run, setRun] = useState(initial);
  const [pollError, setPollError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // a queued run is followed too: it starts when a slot is free (the app's, or a worker's)
  const isRunning = run.status === 'running' || run.status === 'queued';
  const wasRunning = useRef(isRunning);

  useEffect(() => {
    if (!isRunning) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const poll = async () => {
      try {
        const next = await api<RunView>(`/api/runs/${encodeURIComponent(initial.runId)}`, { signal: abort.signal });
        if (abort.signal.aborted) return;
        failures = 0;
        setPollError(null);
        setRun(next);
        if (next.status === 'running' || next.status === 'queued') timer = setTimeout(poll, POLL_MS);
      } catch (err) {
        if (abort.signal.aborted) return;
        failures += 1;
        setPollError((err as Error).message);
        timer = setTimeout(poll, Math.min(POLL_MS * 2 ** failures, MAX_BACKOFF_MS));
      }
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [isRunning, initial.runId]);

  useEffect(() => {
    // say it once, to a screen reader, when a run watched here ends
    if (wasRunning.current && !isRunning) setAnnouncement(`The run ${run.status}.`);
    wasRunning.current = isRunning;
  }, [isRunning, run.status]);

  return (
    <>
      <div className={styles.statusCard} data-status={run.status}>
        <div className={styles.statusLine}>
          {/* the region holds the status word alone: queued, running, completed, failed or aborted */}
          <section aria-label="Run status" aria-live="polite">
            <StatusPill status={run.status} className={styles.bigPill} />
          </section>
          {isRunning ? <span className={styles.liveNote}>{pollError ? `Reconnecting… (${pollError})` : 'Updating live'}</span> : null}
        </div>
        <dl className={styles.facts}>
          <div>
            <dt>Skill</dt>
            <dd>
              <Link href={`/skills/${encodeURIComponent(run.skill)}`} className={styles.mono}>
                {run.skill}
              </Link>
            </dd>
          </div>
          <div>
            <dt>Version</dt>
            <dd className={styles.mono} title={run.version ?? undefined}>
              {run.version ? run.version.slice(0, 12) : '—'}
            </dd>
          </div>
          <div>
            <dt>Model</dt>
            <dd className={styles.mono} title={run.model}>
              {modelLabel(run.model)}
            </dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd>
              <RelativeTime ms={run.createdAt} now={now} />
            </dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>
              <RelativeTime ms={run.updatedAt} now={now} />
            </dd>
          </div>
          <div>
            <dt>{isRunning ? 'Events so far' : 'Took'}</dt>
            <dd>{isRunning ? run.eventCount : `${formatDuration(run.updatedAt - run.createdAt)} · ${run.eventCount} events`}</dd>
          </div>
          {run.parentRunId ? (
            <div>
              <dt>Parent run</dt>
              <dd>
                <Link href={`/runs/${encodeURIComponent(run.parentRunId)}`} className={styles.mono}>
                  {run.parentRunId}
                </Link>
              </dd>
            </div>
          ) : null}
        </dl>
      </div>
      <span role="status" className="visually-hidden">
        {announcement}
      </span>

      <RunLiveOutcome run={run} />

      <div className={styles.columns}>
        <RunLiveSteps steps={run.steps} />
        <RunLiveTraces traces={run.traces} />
      </div>

      <details className={styles.input}>
        <summary>Input</summary>
        <pre className={styles.json} aria-label="Run input" tabIndex={0}>
          {JSON.stringify(run.input, null, 2)}
        </pre>
      </details>
    </>
  );
}
