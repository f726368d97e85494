// Choosing what to compare: the other runs B is often set beside, as links, and a plain form to
// name any two (it works before any script) that opens /runs/compare?a=&b=, with what was wrong
// with the last two, if anything.
import Link from 'next/link';
import { compareHref } from './compare-href';
import styles from './Replay.module.css';

/** a run to set beside B; `isLater`: derived from B, so it goes on the right */
type CompareSuggestion = { runId: string; label: string; isLater: boolean };

export function CompareSuggestions({ b, suggestions }: { b: string; suggestions: readonly CompareSuggestion[] }) {
  if (!suggestions.length) return null;
  return (
    <nav className={styles.suggestions} aria-label="Compare B with another run">
      <span className={styles.dim}>Set B beside:</span>
      <ul>
        {suggestions.map((s) => (
          <li key={s.runId}>
            <Link href={s.isLater ? compareHref(b, s.runId) : compareHref(s.runId, b)} className={styles.mono}>
              {s.runId}
            </Link>{' '}
            <span className={styles.dim}>{s.label}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

type Props = { a: string; b: string; problem: string | null; isFolded: boolean };

function Fields({ a, b }: Pick<Props, 'a' | 'b'>) {
  return (
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
  );
}

export function CompareForm({ a, b, problem, isFolded }: Props) {
  if (isFolded) {
    return (
      <details className={styles.compareOther}>
        <summary>Compare other runs</summary>
        <form method="get" action="/runs/compare" className={styles.compareForm}>
          <Fields a={a} b={b} />
        </form>
      </details>
    );
  }
  return (
    <form method="get" action="/runs/compare" className={styles.compareForm}>
      <p className={styles.compareIntro}>Name two runs: A on the left (the earlier one, or the parent), B on the right. Their steps are aligned by position and every difference marked.</p>
      {problem ? (
        <p className={`form-error ${styles.compareProblem}`} role="alert">
          {problem}
        </p>
      ) : null}
      <Fields a={a} b={b} />
    </form>
  );
}
