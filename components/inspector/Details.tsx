'use client';
// The `Details` region: the item selected on the timeline, as `GET /api/runs/<id>/items/<seq>`
// describes it — what it was handed, what it did, its error (the one place an error shows in full,
// with its stack: for `run`, the run's own), its duration, where its result came from — with the way
// back to its source and the ways to take the run on from it (Rerun from here, Fork from here).
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { RunReportView } from '@/lib/views';
import { Spinner } from '@/components/common/Spinner';
import { ForkFromHere } from '@/components/replay/ForkFromHere';
import { RerunFromHere } from '@/components/replay/RerunFromHere';
import { ErrorBlock } from './ErrorBlock';
import { ItemBody } from './ItemBody';
import { forkPointOf, latencyText, titleParts, recordingResult, studioHref, type TimelineEntry } from './timeline-index';
import styles from './Inspector.module.css';

type Props = {
  runId: string;
  status: string;
  skill: string;
  version: string | null;
  /** the selected id: an item of the timeline, `run` (a failure of the run itself), or none */
  selected: string | null;
  entry: TimelineEntry | null;
  report: RunReportView;
  positions: readonly string[];
};

export function Details(props: Props) {
  return (
    <section className={styles.details} aria-labelledby="details-title">
      <h2 id="details-title">Details</h2>
      <DetailsBody {...props} />
    </section>
  );
}

function DetailsBody({ runId, status, skill, version, selected, entry, report, positions }: Props) {
  if (selected === 'run') {
    // its error in full, the one place it shows whole (the report's summary, above, is its first line)
    return (
      <>
        <p className={styles.itemTitle}>The run itself</p>
        {report.error ? <ErrorBlock error={report.error} skill={skill} version={version} /> : <p className={styles.runSummary}>{report.summary}</p>}
      </>
    );
  }
  if (!entry) return <p className={styles.dim}>Select a stage, step, model turn or tool call on the timeline to see what it was handed and what it did.</p>;
  const isEnded = status !== 'running' && status !== 'queued';
  const isFailedHere = (status === 'failed' || status === 'aborted') && (entry.status === 'failed' || report.error?.position === entry.id || report.failed_step?.position === entry.id);
  const forkAt = forkPointOf(entry);
  return (
    <>
      <div className={styles.itemHead}>
        <ItemTitle entry={entry} />
        <Summary entry={entry} />
        {/* one row of full-size actions, the ones that take the run on first: where the row is too
            narrow for all (1024 px), the studio link wraps, not the fork away from the rerun */}
        <div className={styles.itemLinks}>
          {isEnded && forkAt ? (
            isFailedHere ? (
              <>
                <RerunFromHere runId={runId} skill={skill} version={version} position={entry.id} status={status} isPrimary />
                <ForkFromHere runId={runId} position={forkAt} status={status} positions={positions} skill={skill} ranVersion={version} />
              </>
            ) : (
              <ForkFromHere runId={runId} position={forkAt} status={status} positions={positions} skill={skill} ranVersion={version} />
            )
          ) : null}
          {entry.line !== null ? (
            <Link href={studioHref(skill, version, { line: entry.line })} className="btn" title={`skill.md line ${entry.line}, at the version the run ran`}>
              Open in studio
            </Link>
          ) : null}
        </div>
      </div>
      {entry.seq === null ? <NotRun entry={entry} /> : <Recorded runId={runId} seq={entry.seq} skill={skill} version={version} entry={entry} />}
    </>
  );
}

/** the item's title with its status badge: in place of the title's last word where that is the status, so it shows once */
function ItemTitle({ entry }: { entry: TimelineEntry }) {
  const { name, isStatusLast } = titleParts(entry);
  const badge = (
    <span className="status" data-status={entry.status}>
      {entry.status}
    </span>
  );
  return isStatusLast ? (
    <p className={styles.itemTitle}>
      <code>{name}</code> {badge}
    </p>
  ) : (
    <p className={styles.itemTitle}>
      {badge} <code>{name}</code>
    </p>
  );
}

function Summary({ entry }: { entry: TimelineEntry }) {
  const e = entry;
  // a failed item's summary is its error, which the error block below says (each error shows once)
  const hasError = (e.kind === 'trace' && e.trace.error) || (e.kind === 'step' && e.step.error);
  const text = hasError ? null : e.kind === 'trace' ? e.trace.summary : e.kind === 'step' ? e.step.summary : e.kind === 'model' ? e.turn.summary : e.tool.summary;
  const from = e.kind === 'trace' ? e.trace.answeredFromLog : e.kind === 'step' ? e.step.answeredFromLog : e.kind === 'model' ? e.turn.answeredFromLog : e.tool.answeredFromLog;
  const recorded = e.kind === 'trace' ? e.trace.fromRecording : e.kind === 'step' ? e.step.fromRecording : e.kind === 'model' ? e.turn.fromRecording : e.tool.fromRecording;
  const ms = e.kind === 'trace' ? e.trace.durationMs : e.kind === 'step' ? e.step.durationMs : e.kind === 'model' ? e.turn.latencyMs : e.tool.durationMs;
  return (
    <dl className={styles.facts}>
      {text ? (
        <div className={styles.wide}>
          <dt>Did</dt>
          <dd>{text}</dd>
        </div>
      ) : null}
      {e.kind === 'step' ? (
        <div>
          <dt>on_error</dt>
          <dd>
            <code>{e.step.onError ?? 'fail'}</code>
            {e.step.branch !== 'none' ? <> — took the <code>{e.step.branch}</code> branch</> : null}
          </dd>
        </div>
      ) : null}
      {ms !== null ? (
        <div>
          <dt>{e.kind === 'model' ? 'Latency' : 'Took'}</dt>
          <dd>{latencyText(ms)}</dd>
        </div>
      ) : null}
      {e.seq !== null ? (
        <div>
          <dt>Result</dt>
          <dd>{recorded ? recordingResult(recorded) : from !== null ? `answered from the log (resume at event ${from})` : 'executed'}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function NotRun({ entry }: { entry: TimelineEntry }) {
  // a call a pre-tool stage denied never ran: nothing will be recorded
  if (entry.kind === 'tool' && entry.tool.deniedBy) return <p className={styles.dim}>Not run: the {entry.tool.deniedBy.stage} stage denied it, so nothing was executed or recorded.</p>;
  if (entry.kind !== 'trace') return <p className={styles.dim}>Not recorded yet.</p>;
  return (
    <dl className={styles.facts}>
      <div>
        <dt>Effects it asks</dt>
        <dd>{entry.trace.effects.asked.join(', ') || 'none'}</dd>
      </div>
    </dl>
  );
}

function Recorded({ runId, seq, skill, version, entry }: { runId: string; seq: number; skill: string; version: string | null; entry: TimelineEntry }) {
  const item = useQuery({ ...routeQuery(routes.getRunItem, { params: { id: runId, seq } }), staleTime: Infinity });
  if (item.error) {
    return (
      <p className="form-error" role="alert">
        Not loaded: {item.error.message}
      </p>
    );
  }
  if (!item.data) {
    return (
      <p className={styles.dim}>
        <Spinner /> Loading event {seq}…
      </p>
    );
  }
  return <ItemBody runId={runId} item={item.data} skill={skill} version={version} entry={entry} />;
}
