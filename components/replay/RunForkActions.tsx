'use client';
// Where a run can be taken on from, on its page: a failed or aborted run offers its failed step (or
// the phase it stopped in, when no step failed) first — `Rerun from here` (after a fix, the one click that finishes it without paying again for
// what came before) and `Fork from here`; a completed run offers a fork from its finish artifact.
// Any other point can be chosen in the fork dialog.
import Link from 'next/link';
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunView } from '@/lib/views';
import { ForkFromHere } from './ForkFromHere';
import { RerunFromHere } from './RerunFromHere';
import { failedForkPosition, failedPosition, forkPositions, isPhasePosition } from './run-positions';
import styles from './Replay.module.css';

type Props = { run: Pick<RunView, 'runId' | 'skill' | 'version' | 'status' | 'report' | 'error' | 'rerunFrom' | 'steps' | 'traces'> };

export function RunForkActions({ run }: Props) {
  if (run.status === 'running' || run.status === 'queued') return null;
  const failedAt = failedPosition(run);
  const positions = forkPositions(run);
  if (failedAt) {
    // a run that failed at no step (its finish refused by the phase's contract after the retry) is rerun from the phase's start
    const isPhase = isPhasePosition(run, failedAt);
    const studio = <Link href={`/skills/${encodeURIComponent(run.skill)}`}>the studio</Link>;
    return (
      <section className={styles.takeOn} aria-labelledby="take-on-title" data-tone="failed">
        {isPhase ? (
          <>
            <h2 id="take-on-title">Take it on from the phase it stopped in</h2>
            <p>
              It stopped in phase <code>{failedAt}</code>, with no failed step to point at. Fix the cause (in {studio}), then rerun that phase from its
              start: what came before it is answered from this run&apos;s recording, so no model is called for it.
            </p>
          </>
        ) : (
          <>
            <h2 id="take-on-title">Take it on from the failed step</h2>
            <p>
              It failed at <code>{failedAt}</code>. Fix the cause (in {studio}), then rerun from that step: the steps before it are answered from this
              run&apos;s recording, so no model is called for them.
            </p>
          </>
        )}
        <div className={styles.actions}>
          <RerunFromHere runId={run.runId} skill={run.skill} version={run.version} position={failedAt} status={run.status} isPrimary />
          <ForkFromHere runId={run.runId} position={failedForkPosition(run) ?? failedAt} status={run.status} positions={positions} />
        </div>
      </section>
    );
  }
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
        <ForkFromHere runId={run.runId} position={from} status={run.status} positions={positions} />
      </div>
    </section>
  );
}
