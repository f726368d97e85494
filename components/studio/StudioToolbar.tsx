'use client';
// The studio's top bar: where you are (Skills / name), the version the editor holds and whether it
// has unsaved changes, what the last action said, and Versions, Save and Run; under it, when a
// draft came back, the note that says so with the way to throw it away.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { NameBreaks } from '@/components/common/NameParts';
import { RelativeTime } from '@/components/common/RelativeTime';
import { useHydrated } from '@/components/common/use-hydrated';
import type { Notice } from './studio-logic';
import styles from './Studio.module.css';

type Props = {
  name: string;
  saved: { hash: string | null; at: number | null };
  now: number;
  dirty: boolean;
  notice: Notice;
  versionCount: number;
  showVersions: boolean;
  /** `opener`: the control pressed, which gets focus back when the panel closes */
  onToggleVersions(opener: HTMLElement): void;
  busy: boolean;
  /** an older version is shown: it cannot be saved over */
  readOnly?: boolean;
  onSave(): void;
  onRun(): void;
  /** more actions, before Versions (the check against past runs) */
  children?: ReactNode;
};

export function StudioToolbar(p: Props) {
  // disabled until hydrated: a click on the server's HTML reaches no handler and is lost (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  return (
    <div className={styles.toolbar}>
      <div className={styles.title}>
        <Link href="/" className={styles.crumb}>
          Skills
        </Link>
        <span aria-hidden="true">/</span>
        <h1>
          <NameBreaks name={p.name} />
        </h1>
        <span className={styles.meta}>
          {p.saved.hash ? (
            <>
              version <code title={p.saved.hash}>{p.saved.hash.slice(0, 8)}</code>
              {p.saved.at ? (
                <>
                  {' '}
                  · saved <RelativeTime ms={p.saved.at} now={p.now} />
                </>
              ) : null}
            </>
          ) : (
            'not saved yet'
          )}
          {p.dirty ? <span className={styles.dirty}> · unsaved changes</span> : null}
        </span>
      </div>
      <div className={styles.notice} role="status" aria-live="polite" data-kind={p.notice?.kind} title={p.notice?.text}>
        {p.notice?.text}
      </div>
      <div className={styles.actions}>
        {p.children}
        <button type="button" className="btn" onClick={(e) => p.onToggleVersions(e.currentTarget)} disabled={!hydrated} aria-expanded={p.showVersions} aria-controls="versions-panel">
          Versions ({p.versionCount})
        </button>
        <button type="button" className="btn" onClick={p.onSave} disabled={!hydrated || p.busy || p.readOnly} title={p.readOnly ? 'An older version is read-only' : 'Save a new version (Ctrl/Cmd+S)'}>
          Save
        </button>
        <button type="button" className="btn btn-primary" onClick={p.onRun} disabled={!hydrated || p.busy} title={p.readOnly ? 'Run this version (Ctrl/Cmd+Enter)' : 'Save if needed, then start a run (Ctrl/Cmd+Enter)'}>
          Run
        </button>
      </div>
    </div>
  );
}

export function DraftBanner({ note, onDiscard }: { note: string; onDiscard(): void }) {
  return (
    <div className={styles.banner} role="status">
      {note}{' '}
      <button type="button" className="btn btn-sm" onClick={onDiscard}>
        Discard them
      </button>
    </div>
  );
}

/** an older version, opened from a link back to the source: read-only, with the way to the latest */
export function ReadOnlyBanner({ name, hash, onRestore }: { name: string; hash: string; onRestore(): void }) {
  // disabled until hydrated: a click on the server's HTML reaches no handler and is lost (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  return (
    <div className={styles.banner} data-kind="readonly" role="note" aria-label="Read-only version">
      Viewing version <code title={hash}>{hash.slice(0, 8)}</code> (read-only) —{' '}
      <Link href={`/skills/${encodeURIComponent(name)}`} className={styles.bannerLink}>
        Open latest
      </Link>{' '}
      <button type="button" className="btn btn-sm" onClick={onRestore} disabled={!hydrated}>
        Restore this version
      </button>
    </div>
  );
}

/** what was not right in the link the studio was opened with */
export function LinkProblems({ problems }: { problems: string[] }) {
  return (
    <div className={styles.banner} data-kind="error" role="alert">
      {problems.map((p) => (
        <div key={p}>{p}</div>
      ))}
    </div>
  );
}
