'use client';
// In the studio's recent runs, a run that failed at a step on an older version than the one saved
// here: `Rerun from <step> with version <latest>` — the next step after saving a fix, without going
// back to the run's page. A fork of the run from its failed step with the skill's latest version and
// no edit, as the run page's `Rerun from here` is; then the page moves to the new run.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { useHydrated } from '@/components/common/use-hydrated';

type Props = { runId: string; failedAt: string; latest: string; className?: string };

export function RerunWithLatest({ runId, failedAt, latest, className }: Props) {
  const router = useRouter();
  const hydrated = useHydrated();
  const rerun = useMutation({
    mutationFn: () => callRoute(routes.forkRun, { params: { id: runId }, body: { at: failedAt } }),
    // stays pending: the button goes away with the page
    onSuccess: (fork) => router.push(`/runs/${encodeURIComponent(fork.runId)}`),
  });
  const isBusy = rerun.isPending || rerun.isSuccess;
  return (
    <>
      <button
        type="button"
        className={`btn btn-sm ${className ?? ''}`}
        onClick={() => rerun.mutate()}
        disabled={!hydrated || isBusy}
        aria-busy={isBusy || undefined}
        title={`A new run with version ${latest.slice(0, 8)}: the steps before ${failedAt} answered from this run's recording, ${failedAt} and what follows run live`}
      >
        Rerun from {failedAt} with version {latest.slice(0, 8)}
      </button>
      {rerun.error ? (
        <span className="form-error" role="alert">
          {' '}
          Not rerun: {rerun.error.message}
        </span>
      ) : null}
    </>
  );
}
