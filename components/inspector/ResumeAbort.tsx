'use client';
// `Resume` and `Abort` for a running run. Abort works whoever drives the run (this app, a CLI, a
// worker): its driver cuts the step in flight short and ends it; a run nobody drives is ended at
// once. Resume takes up a run whose process stopped. A resume the kernel refuses — the skill
// changed under the run (a determinism error) — is said before anything runs, with its two ways
// out: restore the version the run ran, or abort it. While this app itself drives the run (it holds
// the run's claim), Resume is disabled and says so: a resume here could only be refused.
import Link from 'next/link';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute, ApiError } from '@/lib/client/api';
import { routeKey } from '@/lib/client/queries';
import { useHydrated } from '@/components/common/use-hydrated';
import { studioHref } from './timeline-index';
import styles from './Inspector.module.css';

/** why Resume is disabled while this app drives the run */
export const DRIVEN_HERE_NOTE = 'This app is driving the run now: there is nothing to resume. Abort stops it.';

type Props = {
  runId: string;
  skill: string;
  version: string | null;
  /** this app's process drives the run (holds its claim): resuming it would be a no-op */
  drivenHere: boolean;
};

export function ResumeAbort({ runId, skill, version, drivenHere }: Props) {
  const client = useQueryClient();
  // uncontrolled, read when Abort is pressed: what was typed before the page hydrated is kept (a
  // controlled input is reset to its state by hydration, and the reason was lost)
  const reasonInput = useRef<HTMLInputElement>(null);
  // the buttons are drawn disabled until the page is hydrated: before, a click on the server's HTML
  // reached no handler and was lost — Abort looked pressed and nothing stopped (a CI at load 4 clicked
  // it 0.5 s after the page showed, and the run ran on)
  const hydrated = useHydrated();
  const refresh = () => client.invalidateQueries({ queryKey: routeKey(routes.getRun, { params: { id: runId } }) });
  const resume = useMutation({ mutationFn: () => callRoute(routes.resumeRun, { params: { id: runId } }), onSettled: refresh });
  const abort = useMutation({
    mutationFn: () => {
      const reason = reasonInput.current?.value.trim() ?? '';
      return callRoute(routes.abortRun, { params: { id: runId }, body: reason ? { reason } : undefined });
    },
    onSettled: refresh,
  });
  const restore = useMutation({
    mutationFn: () => callRoute(routes.restoreVersion, { params: { name: skill, hash: version ?? '' } }),
  });
  const code = resume.error instanceof ApiError ? resume.error.code : null;
  const isBusy = !hydrated || resume.isPending || abort.isPending;
  return (
    <section className={styles.resume} aria-labelledby="resume-title">
      <h2 id="resume-title">Stop or take up this run</h2>
      <p>
        Abort ends the run: the process driving it stops it at once, cutting its step in flight short, and what it recorded is kept. If that
        process stopped, Resume takes the run up again from its last recorded step.
      </p>
      <div className={styles.resumeBar}>
        <button
          type="button"
          // a Resume that cannot be used here is not drawn as the main action: a plain button, Abort beside it the one that works
          className={drivenHere ? 'btn' : 'btn btn-primary'}
          onClick={() => resume.mutate()}
          disabled={isBusy || drivenHere}
          title={drivenHere ? DRIVEN_HERE_NOTE : undefined}
          aria-describedby={drivenHere ? 'resume-driven-here' : undefined}
        >
          Resume
        </button>
        <input className="input" aria-label="Abort reason" placeholder="Why abort (optional)" ref={reasonInput} defaultValue="" />
        <button type="button" className="btn btn-danger" onClick={() => abort.mutate()} disabled={isBusy}>
          Abort
        </button>
      </div>
      {drivenHere ? (
        <p id="resume-driven-here" className={styles.dim}>
          {DRIVEN_HERE_NOTE}
        </p>
      ) : null}
      {resume.data ? (
        <p role="status">Resumed: the run is {resume.data.status}.</p>
      ) : null}
      {abort.data ? (
        <p role="status">{abort.data.status === 'aborted' ? 'Aborted.' : 'Aborting: the process driving the run stops it at its next chance.'}</p>
      ) : null}
      {abort.error ? (
        <p className="form-error" role="alert">
          Not aborted: {abort.error.message}
        </p>
      ) : null}
      {resume.error ? (
        <div className={styles.determinism} role="alert">
          <p>
            <strong>{code === 'determinism_violation' ? 'The skill changed under this run' : 'Not resumed'}:</strong> {resume.error.message}
          </p>
          {code === 'determinism_violation' ? (
            <>
              <p>Nothing ran. Two ways out:</p>
              <ul>
                <li>
                  put back the version the run ran{' '}
                  {version ? (
                    <>
                      (
                      <Link href={studioHref(skill, version)} className={styles.mono}>
                        {version.slice(0, 12)}
                      </Link>
                      ){' '}
                      <button type="button" className="btn btn-sm" onClick={() => restore.mutate()} disabled={restore.isPending || restore.isSuccess}>
                        Restore that version
                      </button>
                    </>
                  ) : null}
                  , then <em>Resume</em>;
                </li>
                <li>
                  or <em>Abort</em> the run.
                </li>
              </ul>
              {restore.isSuccess ? <p role="status">Restored: the version the run ran is the latest again. Resume it now.</p> : null}
              {restore.error ? <p className="form-error">Not restored: {restore.error.message}</p> : null}
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
