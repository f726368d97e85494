// The skills, one row each: what it is, when it was last saved, how its last run went.
import Link from 'next/link';
import type { SkillView } from '@/lib/views';
import { RelativeTime } from '@/components/common/RelativeTime';
import { RunStatusWords } from '@/components/runs/RunStatusWords';
import { NameBreaks } from '@/components/common/NameParts';
import { SkillRowActions } from './SkillRowActions';
import styles from './Home.module.css';
import { plural } from '@/lib/kernel/plural';

export function SkillTable({ skills, now }: { skills: SkillView[]; now: number }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label="Skills">
        <thead>
          <tr>
            <th scope="col">Skill</th>
            <th scope="col" className={styles.descriptionCol}>
              Description
            </th>
            <th scope="col">Last saved</th>
            <th scope="col">Last run</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {skills.map((s) => (
            <tr key={s.name}>
              <th scope="row" className={styles.nameCell}>
                <Link href={`/skills/${encodeURIComponent(s.name)}`} className={styles.name}>
                  <NameBreaks name={s.name} />
                </Link>
                <span className={styles.meta}>
                  {plural(s.versionCount, 'version')}
                </span>
              </th>
              <td className={`${styles.description} ${styles.descriptionCol}`}>
                {s.description ? s.description : <span className={styles.muted}>No description</span>}
              </td>
              <td className={styles.when}>{s.savedAt === null ? <span className={styles.muted}>never</span> : <RelativeTime ms={s.savedAt} now={now} />}</td>
              <td className={styles.lastRun}>
                {s.lastRun ? (
                  <>
                    {/* said as the runs list says it (a blocked run is "completed · blocked needs attention", not a plain "completed") */}
                    <Link href={`/runs/${encodeURIComponent(s.lastRun.id)}`} className={styles.runLink} title={`Run ${s.lastRun.id}`}>
                      <RunStatusWords r={s.lastRun} />
                    </Link>
                    <RelativeTime ms={s.lastRun.createdAt} now={now} className={styles.meta} />
                  </>
                ) : (
                  <span className={styles.muted}>no runs yet</span>
                )}
              </td>
              <td className={styles.actionsCell}>
                <SkillRowActions name={s.name} versionCount={s.versionCount} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
