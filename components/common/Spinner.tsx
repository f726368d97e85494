// A small turning ring for "working…" lines (still under prefers-reduced-motion). Decorative: the
// words beside it say what is going on.
import styles from './Spinner.module.css';

export function Spinner() {
  return <span className={styles.spinner} aria-hidden="true" />;
}
