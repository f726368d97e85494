// A long identifier (a skill name like summarize_customer_feedback_weekly) in a narrow box: it wraps
// only after its `_` or `-`, never inside a word, and a single word wider than the box is cut with an
// ellipsis — the whole name stays in the title (and in the text a screen reader or a copy reads).
import { nameParts } from './name-parts';
import styles from './NameParts.module.css';

export function NameParts({ name, className }: { name: string; className?: string }) {
  const parts = nameParts(name);
  return (
    <span className={className ? `${styles.name} ${className}` : styles.name} title={name}>
      {parts.map((p, i) => (
        <span key={i}>
          <span className={styles.part}>{p}</span>
          {i < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </span>
  );
}
