// A structural diff drawn as rows: each changed path, what it was, what it is (added in green,
// removed struck through in red). The rows come from the divergence's jsondiffpatch delta
// (delta-changes.ts); `before` is the value the delta starts from.
import { useMemo } from 'react';
import { deltaChanges } from './delta-changes';
import { valueText } from './value-text';
import styles from './Replay.module.css';

/** the most characters of one value drawn in a cell (the whole value is one click away, in its run) */
const MAX_VALUE_CHARS = 1200;

/** a value as JSON, an error's message and traceback on their own lines (valueText) */
export function JsonValue({ value }: { value: unknown }) {
  const text = value === undefined ? '—' : valueText(value);
  const shown = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}\n… (${text.length - MAX_VALUE_CHARS} more characters)` : text;
  return <pre className={styles.value}>{shown}</pre>;
}

type Props = {
  /** a jsondiffpatch delta from `before` to the other value */
  delta: unknown;
  before: unknown;
  /** what the two columns are: the first value's side, the second's */
  labels: readonly [string, string];
  /** the table's accessible name */
  label?: string;
};

export function DeltaView({ delta, before, labels, label = 'Structural diff' }: Props) {
  const changes = useMemo(() => deltaChanges(delta, before), [delta, before]);
  if (!changes.length) return null;
  return (
    <table className={styles.delta} aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col">{labels[0]}</th>
          <th scope="col">{labels[1]}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c, i) => (
          <tr key={i} data-change={c.change}>
            <th scope="row">
              <code>{c.path}</code>
              <span className={styles.changeWord}>{c.change}</span>
            </th>
            <td className={styles.before}>{'before' in c ? <JsonValue value={c.before} /> : <span className={styles.dim}>(none)</span>}</td>
            <td className={styles.after}>{'after' in c ? <JsonValue value={c.after} /> : <span className={styles.dim}>(none)</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
