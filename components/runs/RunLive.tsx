'use client';
/**
 * One run, live. The server renders the run as it stood (no flash of empty
 * state); while it is `running` its event stream keeps it current
 * (use-live-run.ts), until it ends. Under its status card the inspector
 * (components/inspector): the report, the ways to take the run on, the
 * timeline and the Details panel; the caller artifact when it completed. The
 * run's input is in the status card, folded.
 */
import Link from 'next/link';
import type { RunTimelineView, RunView } from '@/lib/views';
import { RelativeTime } from '@/components/common/RelativeTime';
import { StatusPill } from '@/components/common/StatusPill';
import { formatDuration, modelLabel } from '@/components/common/format';
import { RunLiveOutcome } from './RunLiveOutcome';
import { useLiveRun } from './use-live-run';
import { BaselineDivergence } from '@/components/replay/BaselineDivergence';
import { ReplayOutcome } from '@/components/replay/ReplayResult';
import { RunActions } from '@/components/replay/RunActions';
import { RunForkActions } from '@/components/replay/RunForkActions';
import { RunLineage } from '@/components/replay/RunLineage';
import { useReplay } from '@/components/replay/use-replay';
import { RunInspector } from '@/components/inspector/RunInspector';
import { ResumeAbort } from '@/components/inspector/ResumeAbort';
import styles from './RunLive.module.css';

export function RunLive({ initial, initialTimeline, now }: { initial: RunView; initialTimeline: RunTimelineView | null; now: number }) {
  const { run, connection, error } = useLiveRun(initial);
  const replay = useReplay(run.runId);
  // a queued run is followed too: it starts when a slot is free (the app's, or a worker's)
  const isRunning = run.status === 'running' || run.status === 'queued';
  // said once, to a screen reader, when a run watched here ends
  const announcement = (initial.status === 'running' || initial.status === 'queued') && !isRunning ? `The run ${run.status}.` : '';
  const liveNote = error ? `Reconnecting… (${error})` : connection === 'reconnecting' ? 'Reconnecting…' : 'Updating live';

  return (
    <>
      <div className={styles.statusCard} data-status={run.status}>
        <div className={styles.statusLine}>
          {/* the region holds the status word alone: queued, running, completed, failed or aborted */}
          <section aria-label="Run status" aria-live="polite">
            <StatusPill status={run.status} className={styles.bigPill} />
          </section>
          {isRunning ? <span className={styles.liveNote}>{liveNote}</span> : null}
          <RunActions run={run} replay={replay} />
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
        {/* in the run's card, beside what ran it: below the timeline and the scrubber it was a page away */}
        <details className={styles.input}>
          <summary>Input</summary>
          <pre className={styles.json} aria-label="Run input" tabIndex={0}>
            {JSON.stringify(run.input, null, 2)}
          </pre>
        </details>
      </div>
      <span role="status" className="visually-hidden">
        {announcement}
      </span>

      <ReplayOutcome replay={replay} />
      {run.status === 'running' ? <ResumeAbort runId={run.runId} skill={run.skill} version={run.version} drivenHere={run.drivenHere ?? false} /> : null}
      <RunInspector run={run} initialTimeline={initialTimeline}>
        <RunLiveOutcome run={run} now={now} />
        <RunForkActions run={run} />
        <BaselineDivergence runId={run.runId} status={run.status} />
        <RunLineage run={run} />
      </RunInspector>

    </>
  );
}
