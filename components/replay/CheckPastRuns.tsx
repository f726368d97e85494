'use client';
// `Check against past runs`, in the studio: the editor's files as they are — saved or not — sent to
// `POST /api/skills/<name>/regress`, which runs their postprocessor over the finish artifacts of the
// skill's past runs (no model is called, nothing is recorded). The dialog says how many runs were
// checked and skipped, and which would end differently: the status then and now, the first step
// that went another way, and the diff of what the caller would get.
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { utcTime } from '@/components/common/format';
import type { Files, RegressRunView, RegressView } from '@/lib/views';
import { DeltaView } from './DeltaView';
import { changeWords, divergenceNote } from './DivergenceList';
import { Spinner } from '@/components/common/Spinner';
import { useHydrated } from '@/components/common/use-hydrated';
import { nothingToCheck } from './regress-words';
import styles from './Replay.module.css';
import { plural } from '@/lib/kernel/plural';

type Props = {
  skill: string;
  /** the editor's files, unsaved changes and all */
  files: Files;
  /** the saved version the files are laid over (null: the skill's latest) */
  version: string | null;
};

const LABELS = ['recorded', 'now'] as const;

const runs = (n: number) => plural(n, 'past run');

/** what the caller got: the caller artifact of a completed run, else its error (as the server diffs them) */
const callerValue = (o: RegressRunView['recorded']) => (o.status === 'completed' ? o.output : { error: o.error });

function Summary({ view }: { view: RegressView }) {
  const against = view.unsaved ? "the editor's text (unsaved changes included)" : `version ${view.version?.slice(0, 8)}`;
  const nothing = nothingToCheck(view);
  if (nothing) {
    return (
      <p className={styles.regressSummary} role="status">
        {nothing}
      </p>
    );
  }
  return (
    <p className={styles.regressSummary} role="status">
      Checked {runs(view.checked)} of {view.skill} against {against}:{' '}
      <strong>{view.changed.length ? `${view.changed.length} would change` : 'none would change'}</strong>
      {view.skipped.length ? `, ${view.skipped.length} skipped` : ''}.
    </p>
  );
}

function ChangedRun({ run }: { run: RegressRunView }) {
  const d = run.firstDivergence;
  return (
    <li className={styles.divergence} aria-label={`Run ${run.runId} would change`}>
      <div className={styles.divergenceHead}>
        <Link href={`/runs/${encodeURIComponent(run.runId)}`} className={styles.mono}>
          {run.runId}
        </Link>
        <span className={styles.dim}>{utcTime(run.createdAt)}</span>
        <span className="status" data-status={run.recorded.status}>
          {run.recorded.status}
        </span>
        <span aria-hidden="true">→</span>
        <span className="status" data-status={run.now.status}>
          {run.now.status}
        </span>
      </div>
      {d ? (
        <p className={styles.divergenceMessage}>
          First different step: <code>{d.position}</code> ({changeWords(d.change, LABELS)}){divergenceNote(d) ? ` — ${divergenceNote(d)}` : ''}
        </p>
      ) : null}
      {run.diff !== null ? <DeltaView delta={run.diff} before={callerValue(run.recorded)} labels={LABELS} label={`What the caller would get, run ${run.runId}`} /> : null}
    </li>
  );
}

export function CheckPastRuns({ skill, files, version }: Props) {
  const [open, setOpen] = useState(false);
  // disabled until hydrated: a click on the server's HTML reaches no handler and is lost (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const check = useMutation({ mutationFn: () => callRoute(routes.regressSkill, { params: { name: skill }, body: { files, ...(version ? { version } : {}) } }) });
  const start = () => {
    setOpen(true);
    check.mutate();
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <button type="button" className="btn" onClick={start} disabled={!hydrated || check.isPending} title="Run this postprocessor over the finish artifacts of past runs (no model is called)">
        Check against past runs
      </button>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={`dialog ${styles.wideDialog}`}>
          <Dialog.Title asChild>
            <h2>Check against past runs</h2>
          </Dialog.Title>
          <Dialog.Description>
            The postprocessor in the editor, run over the finish artifacts of {skill}&apos;s past runs: no model is called and nothing is recorded.
          </Dialog.Description>
          {check.isPending ? (
            <p className={styles.working} role="status">
              <Spinner />
              Running the postprocessor over past runs…
            </p>
          ) : null}
          {check.error ? (
            <p className={`form-error ${styles.dialogError}`} role="alert">
              Not checked: {check.error.message}
            </p>
          ) : null}
          {check.data ? (
            <>
              <Summary view={check.data} />
              {check.data.changed.length ? (
                <ol className={styles.divergences} aria-label="Runs that would change">
                  {check.data.changed.map((r) => (
                    <ChangedRun key={r.runId} run={r} />
                  ))}
                </ol>
              ) : null}
              {check.data.skipped.length ? (
                <details className={styles.values}>
                  <summary>Skipped ({check.data.skipped.length})</summary>
                  <ul className={styles.skipped}>
                    {check.data.skipped.map((s) => (
                      <li key={s.runId}>
                        <code>{s.runId}</code>: {s.reason}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </>
          ) : null}
          <div className="actions">
            <button type="button" className="btn" onClick={() => check.mutate()} disabled={check.isPending}>
              Check again
            </button>
            <Dialog.Close asChild>
              <button type="button" className="btn btn-primary">
                Close
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
