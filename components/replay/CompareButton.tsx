'use client';
// `Compare`: pick the run to set this one beside — its parent, one of its replays or forks, the last
// completed run of the skill, or any run by id — and open the compare view (/runs/compare?a=&b=).
// The earlier run goes on the left: the parent, the baseline; this run's forks go on the right.
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import type { RunView } from '@/lib/views';
import { compareHref } from './compare-href';
import styles from './Replay.module.css';

type Props = { run: Pick<RunView, 'runId' | 'kind' | 'parentRunId' | 'derivedRuns'> };

type Candidate = { runId: string; label: string; isLater: boolean };

const OTHER = '';

export function CompareButton({ run }: Props) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const [other, setOther] = useState('');
  const baseline = useQuery({ ...routeQuery(routes.compareRuns, { query: { b: run.runId } }), enabled: open, retry: false, staleTime: 60_000 });
  const baselineId = baseline.data && 'baselineRunId' in baseline.data ? baseline.data.baselineRunId : null;

  const candidates: Candidate[] = [];
  if (run.parentRunId) candidates.push({ runId: run.parentRunId, label: `its parent (this run is a ${run.kind} of it)`, isLater: false });
  if (baselineId && baselineId !== run.parentRunId) candidates.push({ runId: baselineId, label: 'the last completed run of the skill before it', isLater: false });
  for (const d of run.derivedRuns) candidates.push({ runId: d.runId, label: `its ${d.kind}${d.forkPoint ? ` from ${d.forkPoint}` : ''} (${d.status})`, isLater: true });
  const choice = picked ?? candidates[0]?.runId ?? OTHER;
  const target = choice === OTHER ? other.trim() : choice;
  const isLater = candidates.find((c) => c.runId === choice)?.isLater ?? false;

  const changeOpen = (isOpen: boolean) => {
    if (isOpen) {
      setPicked(null);
      setOther('');
    }
    setOpen(isOpen);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!target || target === run.runId) return;
    router.push(isLater ? compareHref(run.runId, target) : compareHref(target, run.runId));
  };

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn" title="Set this run beside another, step by step">
          Compare
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title asChild>
            <h2>Compare with another run</h2>
          </Dialog.Title>
          <Dialog.Description>The two runs aligned step by step: what changed, where they first went apart, tokens and time side by side.</Dialog.Description>
          <form onSubmit={submit}>
            <fieldset className={styles.choices}>
              <legend className="visually-hidden">The run to compare with</legend>
              {candidates.map((c) => (
                <label key={c.runId} className={styles.choice}>
                  <input type="radio" name="compare-with" value={c.runId} checked={choice === c.runId} onChange={() => setPicked(c.runId)} />
                  <span>
                    <code>{c.runId}</code> <span className={styles.dim}>{c.label}</span>
                  </span>
                </label>
              ))}
              {baseline.isFetching && !baselineId ? <p className={styles.dim}>Looking for the last completed run of the skill…</p> : null}
              <label className={styles.choice}>
                <input type="radio" name="compare-with" value={OTHER} checked={choice === OTHER} onChange={() => setPicked(OTHER)} />
                <span>Another run:</span>
                <input
                  className={`input ${styles.mono}`}
                  aria-label="Run id"
                  placeholder="run_…"
                  value={other}
                  onChange={(e) => setOther(e.target.value)}
                  onFocus={() => setPicked(OTHER)}
                  spellCheck={false}
                  autoComplete="off"
                />
              </label>
            </fieldset>
            {target === run.runId ? (
              <p className={`form-error ${styles.dialogError}`} role="alert">
                That is this run: pick another.
              </p>
            ) : null}
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={!target || target === run.runId}>
                Open the comparison
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
