// Naming the two runs to compare: a plain form (it works before any script) that opens
// /runs/compare?a=&b=, with what was wrong with the last two, if anything.
import styles from './Replay.module.css';

type Props = { a: string; b: string; problem: string | null };

export function CompareForm({ a, b, problem }: Props) {
  return (
    <form method="get" action="/runs/compare" className={styles.compareForm}>
      <p className={styles.compareIntro}>Name two runs: A on the left (the earlier one, or the parent), B on the right. Their steps are aligned by position and every difference marked.</p>
      {problem ? (
        <p className={`form-error ${styles.compareProblem}`} role="alert">
          {problem}
        </p>
      ) : null}
      <div className={styles.compareFields}>
        <label>
          Run A
          <input name="a" className={`input ${styles.mono}`} defaultValue={a} placeholder="run_…" spellCheck={false} autoComplete="off" required />
        </label>
        <label>
          Run B
          <input name="b" className={`input ${styles.mono}`} defaultValue={b} placeholder="run_…" spellCheck={false} autoComplete="off" required />
        </label>
        <button type="submit" className="btn btn-primary">
          Compare these runs
        </button>
      </div>
    </form>
  );
}
