// A status word as a pill: the colours come from globals.css `.status[data-status]`;
// the dot pulses while a run is running.
import styles from './StatusPill.module.css';

export function StatusPill({ status, className }: { status: string; className?: string }) {
  return (
    <span className={className ? `status ${className}` : 'status'} data-status={status}>
      <span className={status === 'running' ? `${styles.dot} ${styles.live}` : styles.dot} aria-hidden="true" />
      {status}
    </span>
  );
}
