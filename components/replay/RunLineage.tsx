// A run's family, both ways: what it was replayed or forked from (and where), and its own replays
// and forks, newest first, each a link. A run that needed attention says which fork took it on and
// completed (the newest), as the runs list's row does: it no longer needs attention, its status stays.
import Link from 'next/link';
import type { RunView } from '@/lib/views';
import { compareHref } from './compare-href';
import { otherVersionWords } from './rerun-version';
import { ReplayVerdict } from './ReplayVerdict';
import styles from './Replay.module.css';

type Props = { run: Pick<RunView, 'runId' | 'kind' | 'status' | 'parentRunId' | 'forkPoint' | 'derivedRuns' | 'takenOnBy' | 'version' | 'parentVersion'> & { report?: Pick<NonNullable<RunView['report']>, 'needs_attention'> | null } };

export function RunLineage({ run }: Props) {
  const isDerived = run.parentRunId !== null && (run.kind === 'fork' || run.kind === 'replay');
  if (!isDerived && run.derivedRuns.length === 0) return null;
  // the runs list's rule (lib/store/run-index.ts, FORK_CHAIN), as the server says it (takenOnBy): a fork that completed
  // anywhere down its chain of forks; without it, a direct fork that completed. A replay checks, it fixes nothing
  const needed = run.status === 'failed' || run.report?.needs_attention === true;
  const direct = needed ? run.derivedRuns.find((d) => d.kind === 'fork' && d.status === 'completed')?.runId : undefined;
  const takenOn = run.takenOnBy !== undefined ? (run.takenOnBy ?? undefined) : direct;
  return (
    <section className={styles.lineage} aria-labelledby="lineage-title">
      <h2 id="lineage-title">Replays and forks</h2>
      {isDerived && run.parentRunId ? (
        <p>
          This run is a {run.kind} of{' '}
          <Link href={`/runs/${encodeURIComponent(run.parentRunId)}`} className={styles.mono}>
            {run.parentRunId}
          </Link>
          {run.forkPoint ? (
            <>
              , from <code>{run.forkPoint}</code>
            </>
          ) : null}
          . <Link href={compareHref(run.parentRunId, run.runId)}>Compare with it</Link>
          {run.kind === 'replay' ? <ReplayVerdict parentRunId={run.parentRunId} runId={run.runId} status={run.status} /> : null}
        </p>
      ) : null}
      {isDerived && otherVersionWords(run.version, run.parentVersion) ? <p>{otherVersionWords(run.version, run.parentVersion)}</p> : null}
      {takenOn ? (
        <p data-taken-on-by={takenOn}>
          Taken on by the fork{' '}
          <Link href={`/runs/${encodeURIComponent(takenOn)}`} className={styles.mono}>
            {takenOn}
          </Link>
          , which completed: this run no longer needs attention.
        </p>
      ) : null}
      {run.derivedRuns.length ? (
        <ul className={styles.derived} aria-label="Replays and forks of this run">
          {run.derivedRuns.map((d) => (
            <li key={d.runId}>
              <span className={styles.kindTag}>{d.kind}</span>
              <Link href={`/runs/${encodeURIComponent(d.runId)}`} className={styles.mono}>
                {d.runId}
              </Link>
              {d.forkPoint ? (
                <span className={styles.dim}>
                  from <code>{d.forkPoint}</code>
                </span>
              ) : null}
              <span className="status" data-status={d.status}>
                {d.status}
              </span>
              {/* its name stays 'compare'; the title (its description) says which of the list it compares with */}
              <Link href={compareHref(run.runId, d.runId)} className={styles.small} title={`Compare this run with ${d.runId}`}>
                compare
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
