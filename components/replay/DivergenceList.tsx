// Divergences between two runs (a run and its replay, or any two compared), the first first: for
// each, its position, what changed, the message the kernel wrote, both sides' status, and the
// structural diff of their values (or both values, where one side has none). A step whose value says
// nothing of what it did (a validate that passed records null) is said in words, not shown as null.
import type { CompareDivergenceView, DivergenceSideView, ReplayDivergenceView } from '@/lib/views';
import { DeltaView, JsonValue } from './DeltaView';
import styles from './Replay.module.css';

type Divergence = ReplayDivergenceView | CompareDivergenceView;

/** a replay's sides are `recorded`/`replayed`, a comparison's `a`/`b` */
export function sidesOf(d: Divergence): [DivergenceSideView | null, DivergenceSideView | null] {
  return 'recorded' in d ? [d.recorded, d.replayed] : [d.a, d.b];
}

/** the change, in words, with the sides named */
export function changeWords(change: Divergence['change'], labels: readonly [string, string]): string {
  switch (change) {
    case 'status':
      return 'status changed';
    case 'output':
      return 'output changed';
    case 'added':
      return `only in ${labels[1]}`;
    case 'removed':
      return `only in ${labels[0]}`;
    case 'model_request_changed':
      return 'model request changed';
    case 'model_turn_unrecorded':
      return 'model turn not recorded';
    case 'tool_call_unrecorded':
      return 'tool call not recorded';
    case 'outcome':
      return 'outcome changed';
  }
}

/**
 * The divergence's message where it says more than its position, kind and change already do (the
 * kernel's step messages are `<position> (<kind>): <what changed>`, which the head shows): an
 * outcome's reason, a replay's stop.
 */
export function divergenceNote(d: Divergence): string | null {
  return d.message.startsWith(`${d.position} (${d.kind}): `) ? null : d.message;
}

/**
 * What a divergence's values disclosure shows, past its shown words ("The value", "Both values,
 * whole"): the step and the sides the value is in — ` at work#1/model, in B only`. Said to a screen
 * reader, so that one disclosure is told from the next (each read "The value" alone).
 */
export function valuesWhere(position: string, has: readonly [boolean, boolean], labels: readonly [string, string]): string {
  const sides = has[0] && has[1] ? `${labels[0]} and ${labels[1]}` : `${has[0] ? labels[0] : labels[1]} only`;
  return ` at ${position}, in ${sides}`;
}

function Side({ label, side }: { label: string; side: DivergenceSideView | null }) {
  return (
    <div className={styles.side}>
      <span className={styles.sideLabel}>{label}</span>
      {side ? (
        <>
          <span className="status" data-status={side.status}>
            {side.status}
          </span>
          {side.said ? <span className={styles.dim}>{side.said}</span> : null}
        </>
      ) : (
        <span className={styles.dim}>no such step</span>
      )}
    </div>
  );
}

export function DivergenceItem({ d, labels, index }: { d: Divergence; labels: readonly [string, string]; index: number }) {
  const [first, second] = sidesOf(d);
  // a side said in words (a validate that passed records null): no diff from the other's value to a null it did not make
  const hasDiff = d.diff !== null && first !== null && second !== null && !first.said && !second.said;
  const note = divergenceNote(d);
  const valuesShown = hasDiff || (first && second && (first.said || second.said)) ? 'Both values, whole' : 'The value';
  const where = valuesWhere(d.position, [first !== null, second !== null], labels);
  return (
    <li className={styles.divergence} id={`divergence-${index + 1}`} aria-label={`Divergence ${index + 1} at ${d.position}`}>
      <div className={styles.divergenceHead}>
        <span className={styles.ordinal}>{index + 1}</span>
        <code className={styles.position}>{d.position}</code>
        <span className={styles.changeTag} data-change={d.change}>
          {changeWords(d.change, labels)}
        </span>
        <span className={styles.dim}>{d.kind}</span>
      </div>
      {note ? <p className={styles.divergenceMessage}>{note}</p> : null}
      <div className={styles.sides}>
        <Side label={labels[0]} side={first} />
        <span aria-hidden="true" className={styles.arrow}>
          →
        </span>
        <Side label={labels[1]} side={second} />
      </div>
      {hasDiff ? <DeltaView delta={d.diff} before={first.value} labels={labels} label={`Structural diff at ${d.position}`} /> : null}
      {first || second ? (
        // named as its control: the same item is drawn on pages that list several runs' divergences
        // (CheckPastRuns), where an id to point at would not be one of a kind
        <details className={styles.values} aria-label={`${valuesShown}${where}`}>
          <summary>
            {valuesShown}
            <span className="visually-hidden">{where}</span>
          </summary>
          <div className={styles.valuesGrid}>
            <div>
              <span className={styles.sideLabel}>{labels[0]}</span>
              {first?.said ? <p>{first.said}</p> : first ? <JsonValue value={first.value} /> : <p className={styles.dim}>(no such step)</p>}
            </div>
            <div>
              <span className={styles.sideLabel}>{labels[1]}</span>
              {second?.said ? <p>{second.said}</p> : second ? <JsonValue value={second.value} /> : <p className={styles.dim}>(no such step)</p>}
            </div>
          </div>
        </details>
      ) : null}
    </li>
  );
}

type Props = {
  divergences: readonly Divergence[];
  /** the names of the two sides, first and second: `recorded`/`replay`, or the two runs */
  labels: readonly [string, string];
  /** the list's accessible name */
  label?: string;
};

export function DivergenceList({ divergences, labels, label = 'Divergences' }: Props) {
  if (!divergences.length) return null;
  return (
    <ol className={styles.divergences} aria-label={label}>
      {divergences.map((d, i) => (
        <DivergenceItem key={`${d.position}:${d.change}:${i}`} d={d} labels={labels} index={i} />
      ))}
    </ol>
  );
}
