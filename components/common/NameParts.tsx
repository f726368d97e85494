// A long identifier (a skill name like summarize_customer_feedback_weekly) in a narrow box: it wraps
// only after its `_` or `-`, never inside a word, and a single word wider than the box is cut with an
// ellipsis — the whole name stays in the title (and in the text a screen reader or a copy reads).
import { Fragment } from 'react';
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

/** the name as plain text that may wrap after its `_` or `-` (no ellipsis: the box's own CSS decides
 *  what a word wider than it does); the text a screen reader or a copy reads is the name unchanged */
export function NameBreaks({ name }: { name: string }) {
  return nameParts(name).map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}
