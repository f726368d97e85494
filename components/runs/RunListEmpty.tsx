// No runs to show: either none at all yet (how to make one), or none that match the filters.
import Link from 'next/link';
import styles from './RunList.module.css';

export function RunListEmpty({ isFiltered }: { isFiltered: boolean }) {
  if (isFiltered) {
    return (
      <section className={styles.empty} aria-labelledby="runs-empty-title">
        <h2 id="runs-empty-title">No runs match these filters</h2>
        <p>
          Try another status or skill, or <Link href="/runs">show all runs</Link>.
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
