'use client';
// A run's page-level actions: Replay (its result is drawn by ReplayOutcome, which shares `replay`),
// Compare and Export.
import type { RunView } from '@/lib/views';
import { CompareButton } from './CompareButton';
import { ExportButton } from './ExportButton';
import { ReplayButton } from './ReplayButton';
import type { ReplayState } from './use-replay';
import styles from './Replay.module.css';

type Props = {
  run: Pick<RunView, 'runId' | 'status' | 'kind' | 'parentRunId' | 'derivedRuns'>;
  replay: ReplayState;
};

export function RunActions({ run, replay }: Props) {
  return (
    <div className={styles.runActions} role="group" aria-label="Run actions">
      <ReplayButton replay={replay} status={run.status} />
      <CompareButton run={run} />
      <ExportButton runId={run.runId} status={run.status} />
    </div>
  );
}
