// Recent runs, newest first: which skill, how it went, on which model, when.
import Link from 'next/link';
import type { RunListItemView } from '@/lib/views';
import { RelativeTime } from '@/components/common/RelativeTime';
import { StatusPill } from '@/components/common/StatusPill';
import { formatDuration, modelLabel } from '@/components/common/format';
import styles from './RunList.module.css';

export function RunList({ runs, liveSkills, now }: { runs: RunListItemView[]; liveSkills: string[]; now: number }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label="Runs">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Skill</th>
            <th scope="col">Status</th>
            <th scope="col">Model</th>
            <th scope="col">Started</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.runId}>
              <th scope="row">
                <Link href={`/runs/${encodeURIComponent(r.runId)}`} className={styles.runId}>
                  {r.runId}
                </Link>
                {r.parentRunId ? (
                  <span className={styles.sub}>
                    {r.kind === 'fork' || r.kind === 'replay' ? `${r.kind}${r.forkPoint ? ` from ${r.forkPoint}` : ''} of` : 'child of'}{' '}
                    <Link href={`/runs/${encodeURIComponent(r.parentRunId)}`} className={styles.mono}>
                      {r.parentRunId}
                    </Link>
                  </span>
                ) : null}
              </th>
              <td>
                {liveSkills.includes(r.skill) ? (
                  <Link href={`/skills/${encodeURIComponent(r.skill)}`} className={styles.mono}>
                    {r.skill}
                  </Link>
                ) : (
                  <span className={styles.mono} title="This skill was deleted or renamed; its runs stay inspectable.">
                    {r.skill}
                  </span>
                )}
                {r.version ? (
                  <span className={styles.sub} title={r.version}>
                    version {r.version.slice(0, 8)}
                  </span>
                ) : null}
              </td>
              <td>
                <StatusPill status={r.status} />
              </td>
              <td className={styles.model} title={r.model}>
                {modelLabel(r.model)}
              </td>
              <td className={styles.nowrap}>
                <RelativeTime ms={r.createdAt} now={now} />
              </td>
              <td className={styles.nowrap}>{r.status === 'running' || r.status === 'queued' ? <span className={styles.muted}>…</span> : formatDuration(r.updatedAt - r.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
