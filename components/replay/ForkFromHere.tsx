'use client';
// `Fork from here`: a dialog (named as its button) that reads the value at the position
// (`GET /api/runs/<id>/fork?at=`) and opens it in an editor (ForkEditor) before anything runs.
// Given `positions`, the dialog also lets the point be changed (any position of the run may be
// typed; these are offered). Given `skill`, the version the fork goes on with can be chosen among
// the skill's saved versions (the latest by default).
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import { ForkEditor } from './ForkEditor';
import { forkPointHint } from './run-positions';
import { Spinner } from '@/components/common/Spinner';
import { utcTime } from '@/components/common/format';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Replay.module.css';

type Props = {
  runId: string;
  /** the kernel's position to fork at: a step (`draft/r2/model`, `__post__/3`), `…/input`, a phase, `__post__`, `input` */
  position: string;
  /** the run's status: a run still going cannot be forked yet */
  status: string;
  /** when given, the point can be changed in the dialog, and these are offered */
  positions?: readonly string[];
  /** the run's skill: when given, the version the fork runs with can be chosen (default: the latest) */
  skill?: string;
  /** the version the run ran, named so among the choices */
  ranVersion?: string | null;
};

export function ForkFromHere({ runId, position, status, positions, skill, ranVersion }: Props) {
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState(position);
  const [typed, setTyped] = useState(position);
  const isEnded = status !== 'running' && status !== 'queued';
  // '' is the skill's latest version
  const [version, setVersion] = useState('');
  const query = version ? { at, version } : { at };
  const point = useQuery({ ...routeQuery(routes.forkPoint, { params: { id: runId }, query }), enabled: open && at.trim() !== '', retry: false, staleTime: 30_000 });
  const versions = useQuery({ ...routeQuery(routes.listVersions, { params: { name: skill ?? '' } }), enabled: open && Boolean(skill), staleTime: 30_000 });
  // a choice only where there is one: the skill's versions read, more than one of them
  const hasChoice = Boolean(skill && versions.data && versions.data.versions.length > 1);
  // disabled until hydrated: a click on the server's HTML reaches no handler, the dialog did not open (components/common/use-hydrated.ts)
  const hydrated = useHydrated();

  const changeOpen = (isOpen: boolean) => {
    if (isOpen) {
      setAt(position);
      setTyped(position);
      setVersion('');
    }
    setOpen(isOpen);
  };
  const commit = () => {
    if (typed.trim() && typed.trim() !== at) setAt(typed.trim());
  };

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn" disabled={!hydrated || !isEnded} title={`A new run from ${position}, with the value there edited`}>
          Fork from here
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={`dialog ${styles.wideDialog}`}>
          <Dialog.Title asChild>
            <h2>Fork from here</h2>
          </Dialog.Title>
          <Dialog.Description>
            A new run: the steps before the point are answered from run <code>{runId}</code>&apos;s recording (no model is called for them), the value there is
            yours to edit, and the rest runs live with the skill&apos;s latest version{hasChoice ? ' (or the one chosen below)' : ''}.
          </Dialog.Description>
          {hasChoice ? (
            <div className="field">
              <label htmlFor="fork-version">Version</label>
              <select id="fork-version" className={`input ${styles.mono}`} value={version} onChange={(e) => setVersion(e.target.value)}>
                {versions.data!.versions.map((v, i) => (
                  <option key={v.hash} value={i === 0 ? '' : v.hash}>
                    {v.hash.slice(0, 12)} · {[i === 0 ? 'latest' : `saved ${utcTime(v.savedAt)}`, ...(ranVersion && v.hash.startsWith(ranVersion) ? ["this run's"] : [])].join(' · ')}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {positions ? (
            <div className="field">
              <label htmlFor="fork-point">Fork point</label>
              <input
                id="fork-point"
                className={`input ${styles.mono}`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                onBlur={commit}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    commit();
                  }
                }}
                list="fork-point-suggestions"
                autoComplete="off"
                spellCheck={false}
                aria-describedby="fork-point-hint"
              />
              <span id="fork-point-hint" className={styles.labelNote}>
                {forkPointHint(positions)}
              </span>
              <datalist id="fork-point-suggestions">
                {positions.map((p) => (
                  <option key={p} value={p} />
                ))}
              </datalist>
            </div>
          ) : null}
          {point.isPending && point.fetchStatus !== 'idle' ? (
            <p className={styles.working} role="status">
              <Spinner />
              Reading the value at <code>{at}</code>…
            </p>
          ) : null}
          {point.error ? (
            <p className={`form-error ${styles.dialogError}`} role="alert">
              {point.error.message}
            </p>
          ) : null}
          {point.data && !point.error ? (
            <ForkEditor
              key={`${point.data.at}:${point.data.version}`}
              point={point.data}
              cancel={
                <Dialog.Close asChild>
                  <button type="button" className="btn">
                    Cancel
                  </button>
                </Dialog.Close>
              }
            />
          ) : (
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </Dialog.Close>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
