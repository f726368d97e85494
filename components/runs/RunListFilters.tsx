// Narrowing the run list by a search (run ids, inputs, error messages), status, skill and
// "needs attention": a plain GET form, so the URL says what is shown and it works before any
// script loads.
import Link from 'next/link';
import { RUN_STATUS_WORDS } from '@/lib/views';
import styles from './RunList.module.css';

type Props = { status: string | undefined; skill: string | undefined; q: string | undefined; attention: boolean; skills: string[] };

export function RunListFilters({ status, skill, q, attention, skills }: Props) {
  const isFiltered = Boolean(status || skill || q || attention);
  return (
    <form method="get" action="/runs" className={styles.filters} role="search" aria-label="Filter runs">
      <div className={styles.filter}>
        <label htmlFor="runs-q">Search</label>
        <input id="runs-q" name="q" type="search" className="input" aria-label="Search runs" placeholder="run id, input, error…" defaultValue={q ?? ''} maxLength={200} />
      </div>
      <div className={styles.filter}>
        <label htmlFor="runs-status">Status</label>
        <select id="runs-status" name="status" className="select" defaultValue={status ?? ''}>
          <option value="">Any status</option>
          {RUN_STATUS_WORDS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.filter}>
        <label htmlFor="runs-skill">Skill</label>
        <select id="runs-skill" name="skill" className="select" defaultValue={skill ?? ''}>
          <option value="">Any skill</option>
          {skills.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <label className={styles.check}>
        <input type="checkbox" name="attention" value="1" defaultChecked={attention} /> Needs attention
      </label>
      <button type="submit" className="btn">
        Filter
      </button>
      {isFiltered ? (
        <Link href="/runs" className="btn btn-ghost">
          Clear filters
        </Link>
      ) : null}
    </form>
  );
}
