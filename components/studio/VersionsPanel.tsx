'use client';
// The version list: every saved version, newest first; what changed between
// any two of them (or between one and the unsaved changes), file by file; and
// restoring one, which makes it the latest again.
import { useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Files, VersionSummaryView } from '@/lib/views';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import { diffBundles } from './bundle-diff';
import styles from './Studio.module.css';
import { plural } from '@/lib/kernel/plural';
import { RelativeTime } from '@/components/common/RelativeTime';

type Props = {
  id: string;
  skill: string;
  versions: VersionSummaryView[];
  /** the version the editor holds */
  current: string | null;
  /** the unsaved working copy, when there is one */
  working: Files | null;
  onRestore(hash: string): void;
  onClose(): void;
};

const WORKING = 'working';
/** what "from nothing" compares against */
const NOTHING: Files = {};
const ORIGIN: Record<string, string> = { app: 'saved', push: 'pushed', run: 'run from a folder', example: 'example', create: 'created', rename: 'renamed', restore: 'restored' };

export function VersionsPanel({ id, skill, versions, current, working, onRestore, onClose }: Props) {
  // until the user picks, the comparison follows the list: the newest against the one before it
  // (or the unsaved changes against the current version)
  const [toPicked, setTo] = useState<string | null>(null);
  const [fromPicked, setFrom] = useState<string | null>(null);
  const to = toPicked ?? (working ? WORKING : (versions[0]?.hash ?? ''));
  const from = fromPicked ?? (working ? (current ?? '') : (versions[1]?.hash ?? ''));
  // a version's files never change: once loaded, they are kept for the page's life
  const wanted = [...new Set([from, to].filter((h) => h && h !== WORKING))];
  const loads = useQueries({ queries: wanted.map((hash) => ({ ...routeQuery(routes.getVersion, { params: { name: skill, hash } }), staleTime: Infinity })) });
  const error = loads.find((q) => q.error)?.error?.message ?? null;
  const loaded = new Map(wanted.map((h, i) => [h, loads[i]?.data?.files ?? null]));
  const a = from ? (from === WORKING ? working : (loaded.get(from) ?? null)) : NOTHING;
  const b = to === WORKING ? working : (loaded.get(to) ?? null);
  const diff = useMemo(() => (a && b ? diffBundles(a, b) : null), [a, b]);
  const short = (h: string) => (h === WORKING ? 'unsaved changes' : h.slice(0, 8));
  // when a version was saved reads as elsewhere in the app ("3 min ago", the exact time in its tooltip);
  // the panel is drawn in the browser only, opened by a click, so its clock is the browser's
  const [now] = useState(() => Date.now());

  return (
    <aside id={id} className={styles.versions} aria-label="Versions">
      <div className={styles.versionsHead}>
        <h2>Versions of {skill}</h2>
        <button type="button" className="btn btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      <p className={styles.muted}>Pick two to compare (from → to). Restoring a version makes it the latest again.</p>
      <table className={styles.versionTable}>
        <thead>
          <tr>
            <th scope="col">from</th>
            <th scope="col">to</th>
            <th scope="col">version</th>
            <th scope="col">saved</th>
            <th scope="col">
              <span className="visually-hidden">actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {working ? (
            <tr data-current="working">
              <td />
              <td>
                <input type="radio" name="to" aria-label="compare to the unsaved changes" checked={to === WORKING} onChange={() => setTo(WORKING)} />
              </td>
              <td colSpan={3}>
                <i>unsaved changes</i>
              </td>
            </tr>
          ) : null}
          {versions.map((v) => (
            <tr key={v.hash} data-current={v.hash === current || undefined}>
              <td>
                <input type="radio" name="from" aria-label={`compare from ${v.hash.slice(0, 8)}`} checked={from === v.hash} onChange={() => setFrom(v.hash)} />
              </td>
              <td>
                <input type="radio" name="to" aria-label={`compare to ${v.hash.slice(0, 8)}`} checked={to === v.hash} onChange={() => setTo(v.hash)} />
              </td>
              <td>
                <code title={v.hash}>{v.hash.slice(0, 8)}</code>
                {v.hash === current ? <span className={styles.currentTag}>current</span> : null}
                <div className={styles.muted}>
                  {ORIGIN[v.origin] ?? v.origin} · {plural(v.fileCount, 'file')}
                </div>
              </td>
              <td>
                <RelativeTime ms={v.savedAt} now={now} />
              </td>
              <td>
                {v.hash !== current ? (
                  <button type="button" className="btn btn-sm" onClick={() => onRestore(v.hash)} aria-label={`Restore version ${v.hash.slice(0, 8)}`}>
                    Restore
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className={styles.diff} aria-label="Changes">
        <h3>
          {from ? short(from) : 'nothing'} → {to ? short(to) : '…'}
        </h3>
        {error ? <p className="form-error">{error}</p> : null}
        {!diff ? (
          <p className={styles.muted}>{from && to ? 'Loading…' : 'Pick two versions.'}</p>
        ) : diff.length === 0 ? (
          <p className={styles.muted}>No differences.</p>
        ) : (
          diff.map((f) => (
            <div key={f.path} className={styles.fileDiff}>
              <div className={styles.fileDiffHead}>
                <code>{f.path}</code> <span data-change={f.change}>{f.change}</span>{' '}
                <span className={styles.muted}>
                  +{f.added} −{f.removed}
                </span>
              </div>
              <pre className={styles.diffBody}>
                {f.hunks.map((h, i) => (
                  <span key={i}>
                    <span className={styles.hunk}>{h.header}</span>
                    {'\n'}
                    {h.lines.map((l, j) => (
                      <span key={j} data-line={l.kind}>
                        {l.kind}
                        {l.text}
                        {'\n'}
                      </span>
                    ))}
                  </span>
                ))}
              </pre>
            </div>
          ))
        )}
      </section>
    </aside>
  );
}
