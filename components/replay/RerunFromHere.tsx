'use client';
// `Rerun from here`: the one click after a fix. A fork at this position with the skill's latest
// version and no edit — the steps before it are answered from this run's recording (no model is
// called for them), the step here and everything after it run live — then the page moves to it.
// Under the row of actions, which version that is: when no newer version of the skill was saved since, it says the
// rerun takes the same version again (a rerun then finishes the same code, it does not try a fix).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useRouter } from 'next/navigation';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { routeQuery } from '@/lib/client/queries';
import { rerunVersionNote } from './rerun-version';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Replay.module.css';

type Props = {
  runId: string;
  skill: string;
  /** the version the run ran (null for a run recorded before versions were bundles) */
  version: string | null;
  /** the kernel's position to rerun from (`__post__/0`, `draft/r2/model`, a phase name) */
  position: string;
  /** the run's status: a run still going has nothing to rerun yet */
  status: string;
  /** the primary action where it is the thing to do (a failed run's failed step) */
  isPrimary?: boolean;
};

export function RerunFromHere({ runId, skill, version, position, status, isPrimary = false }: Props) {
  const router = useRouter();
  const noteId = useId();
  // the skill's versions, newest first: the first is the one a rerun takes
  const versions = useQuery({ ...routeQuery(routes.listVersions, { params: { name: skill } }), select: (v) => v.versions.slice(0, 1) });
  const note = rerunVersionNote(version, versions.data?.[0]?.hash ?? null);
  const rerun = useMutation({
    mutationFn: () => callRoute(routes.forkRun, { params: { id: runId }, body: { at: position } }),
    // stays pending: the button goes away with the page
    onSuccess: (fork) => router.push(`/runs/${encodeURIComponent(fork.runId)}`),
  });
  const isEnded = status !== 'running' && status !== 'queued';
  // disabled until hydrated: a click on the server's HTML reaches no handler (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const isBusy = rerun.isPending || rerun.isSuccess;
  // the button sits in its row of actions with the others; the note and any error go under that row
  // (styles.underActions), so a note never pushes the next button onto a line of its own
  return (
    <>
      <button
        type="button"
        className={`btn ${isPrimary ? 'btn-primary' : ''}`}
        onClick={() => rerun.mutate()}
        disabled={!hydrated || !isEnded || isBusy}
        aria-busy={isBusy || undefined}
        aria-describedby={note ? noteId : undefined}
        title={`A new run with the skill's latest version: the steps before ${position} answered from this run's recording, ${position} and what follows run live`}
      >
        Rerun from here
      </button>
      {note ? (
        <span id={noteId} className={`${styles.underActions} ${styles.rerunNote}`} data-same-version={note.isSame || undefined}>
          {note.text}
        </span>
      ) : null}
      {rerun.error ? (
        <span className={`form-error ${styles.underActions}`} role="alert">
          Not rerun: {rerun.error.message}
        </span>
      ) : null}
    </>
  );
}
