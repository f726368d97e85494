// No runs to show: either none at all yet (how to make one), or none that match the filters.
import Link from 'next/link';
import { setFilterWords, type RunFilters } from './run-filters';
import styles from './RunList.module.css';

/**
 * `filters`: those of the list when none of its runs match them (none: there are no runs at all);
 * `liveSkills`: the skills that exist, so a skill filter naming none of them says so
 */
export function RunListEmpty({ filters, liveSkills }: { filters?: RunFilters; liveSkills?: string[] }) {
  const set = filters ? setFilterWords(filters) : null;
  if (filters) {
    const unknown = filters.skill && liveSkills && !liveSkills.includes(filters.skill) ? filters.skill : null;
    return (
      <section className={styles.empty} aria-labelledby="runs-empty-title">
        <h2 id="runs-empty-title">No runs match these filters</h2>
        {unknown ? (
          <p>
            No skill is named <code>{unknown}</code> now: check its spelling (names are exact), or it was deleted and none of its runs match.
          </p>
        ) : null}
        <p>
          {set ? `Change ${set}, or ` : null}
          <Link href="/runs">{set ? 'show all runs' : 'Show all runs'}</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className={styles.empty} aria-labelledby="runs-empty-title">
      <h2 id="runs-empty-title">No runs yet</h2>
      <p>
        Open a skill from <Link href="/">Skills</Link> and press <strong>Run</strong>, or run a bundle folder from your terminal:
      </p>
      <p>
        <code className={styles.command}>npx stagecraft run DIR --input input.json</code>
      </p>
      <p>Every run is recorded step by step, so you can come back here and see exactly what happened.</p>
    </section>
  );
}
