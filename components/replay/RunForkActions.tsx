'use client';
// Where a run can be taken on from, on its page: a failed or aborted run offers the point the server
// reruns it from (RunView.rerunFrom: its failed step, or the phase it stopped in when no step failed)
// first — `Rerun from here` (after a fix, the one click that finishes it without paying again for
// what came before) and `Fork from here`; a completed run offers a fork from its finish artifact.
// Any other point can be chosen in the fork dialog.
import Link from 'next/link';
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunView } from '@/lib/views';
import { ForkFromHere } from './ForkFromHere';
import { RerunFromHere } from './RerunFromHere';
import { forkPositions, rerunDoneNote, rerunPointOf, type RerunPoint } from './run-positions';
import styles from './Replay.module.css';

type Props = { run: Pick<RunView, 'runId' | 'skill' | 'version' | 'status' | 'rerunFrom' | 'steps' | 'traces'> & Partial<Pick<RunView, 'error' | 'report' | 'derivedRuns'>> };

/** the take-on box of a failed run: its words (a failed step's, or a phase's) are data, the box one */
function TakeOnFailed({ run, point, positions }: Props & { point: RerunPoint; positions: string[] }) {
  const { at, forkAt, words, stoppedBy, place, visit } = point;
  return (
    <section className={styles.takeOn} aria-labelledby="take-on-title" data-tone="failed">
      <h2 id="take-on-title">{words.title}</h2>
      <p>
        {words.where[0]}
        {/* the place as the runs list counts it (draft), and the visit the rerun takes on beside it */}
        <code title={at}>{place}</code>
        {visit ? ` (${visit})` : ''}
        {words.where[1]}
        {stoppedBy || words.why ? ` ${stoppedBy ?? words.why}` : ''} Fix the cause (in <Link href={`/skills/${encodeURIComponent(run.skill)}`}>the studio</Link>), then {words.rerun}: {words.before}{' '}
        answered from this run&apos;s recording, so no model is called for {words.forWhat}.
      </p>
      {rerunDoneNote(run, at) ? <p className={styles.dim}>{rerunDoneNote(run, at)}</p> : null}
      <div className={styles.actions}>
        <RerunFromHere runId={run.runId} skill={run.skill} version={run.version} position={at} status={run.status} isPrimary />
        <ForkFromHere runId={run.runId} position={forkAt} status={run.status} positions={positions} skill={run.skill} ranVersion={run.version} />
      </div>
    </section>
  );
}

export function RunForkActions({ run }: Props) {
  if (run.status === 'running' || run.status === 'queued') return null;
  const positions = forkPositions(run);
  // where the server reruns it from (RunView.rerunFrom): the page derives no point of its own
  const point = rerunPointOf(run);
  if (point) return <TakeOnFailed run={run} point={point} positions={positions} />;
  // a run that never reached its finish artifact (ended on request) can be forked from its input
  const from = run.status === 'completed' ? FORK_POINT_FINISH : FORK_POINT_INPUT;
  return (
    <section className={styles.takeOn} aria-labelledby="take-on-title">
      <h2 id="take-on-title">Fork it</h2>
      <p>
        Try a change on this run&apos;s recording: edit {from === FORK_POINT_FINISH ? 'its finish artifact' : 'its input'} (or the value at any other point) and run on
        from there, with nothing before it run again.
      </p>
      <div className={styles.actions}>
        <ForkFromHere runId={run.runId} position={from} status={run.status} positions={positions} skill={run.skill} ranVersion={run.version} />
      </div>
    </section>
  );
}
