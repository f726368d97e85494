'use client';
// `Rerun from here`: the one click after a fix. A fork at this position with the skill's latest
// version and no edit — the steps before it are answered from this run's recording (no model is
// called for them), the step here and everything after it run live — then the page moves to it.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import styles from './Replay.module.css';

type Props = {
  runId: string;
  /** the kernel's position to rerun from (`__post__/0`, `draft/r2/model`, a phase name) */
  position: string;
  /** the run's status: a run still going has nothing to rerun yet */
  status: string;
  /** the primary action where it is the thing to do (a failed run's failed step) */
  isPrimary?: boolean;
};

export function RerunFromHere({ runId, position, status, isPrimary = false }: Props) {
  const router = useRouter();
  const rerun = useMutation({
    mutationFn: () => callRoute(routes.forkRun, { params: { id: runId }, body: { at: position } }),
    // stays pending: the button goes away with the page
    onSuccess: (fork) => router.push(`/runs/${encodeURIComponent(fork.runId)}`),
  });
  const isEnded = status !== 'running' && status !== 'queued';
  const isBusy = rerun.isPending || rerun.isSuccess;
  return (
    <span className={styles.action}>
      <button
        type="button"
        className={`btn ${isPrimary ? 'btn-primary' : ''}`}
        onClick={() => rerun.mutate()}
        disabled={!isEnded || isBusy}
        aria-busy={isBusy || undefined}
        title={`A new run with the skill's latest version: the steps before ${position} answered from this run's recording, ${position} and what follows run live`}
      >
        Rerun from here
      </button>
      {rerun.error ? (
        <span className="form-error" role="alert">
          Not rerun: {rerun.error.message}
        </span>
      ) : null}
    </span>
  );
}
