// What a replay found: `identical`, or `diverged` with every step that changed, the first first
// (position, what changed, the recorded value and the replay's, a structural diff), where it had to
// stop, and a link to the replay itself (a run of kind replay, inspectable like any other).
import Link from 'next/link';
import type { ReplayView } from '@/lib/views';
import { DivergenceList } from './DivergenceList';
import type { ReplayState } from './use-replay';
import { Spinner } from '@/components/common/Spinner';
import styles from './Replay.module.css';
import { plural } from '@/lib/kernel/plural';

const LABELS = ['recorded', 'replay'] as const;

function verdictSentence(r: ReplayView): string {
  const version = `version ${r.version.slice(0, 8)}`;
  const steps = `${plural(r.steps.compared, 'step')} compared (${r.steps.answered} answered from the recording, ${r.steps.executed} executed again), no model called`;
  if (r.identical) return ` — replayed with ${version}, the run does the same: ${steps}.`;
  const first = r.divergences[0];
  return ` — replayed with ${version}, ${plural(r.divergences.length, 'step')} changed${first ? `, the first at ${first.position}` : ''}: ${steps}.`;
}

export function ReplayResult({ result }: { result: ReplayView }) {
  return (
    // the region's text starts with the verdict word: identical or diverged
    <section aria-label="Replay result" className={styles.replayResult} data-verdict={result.verdict}>
      <p className={styles.verdictLine}>
        <strong className={styles.verdict} data-verdict={result.verdict}>
          {result.verdict}
        </strong>
        {verdictSentence(result)}
      </p>
      <p className={styles.replayFacts}>
        <span>
          Recorded: <span className="status" data-status={result.recordedStatus}>{result.recordedStatus}</span>
        </span>
        <span>
          Replay: <span className="status" data-status={result.status}>{result.status}</span>
        </span>
        <Link href={`/runs/${encodeURIComponent(result.replayRunId)}`} className={styles.mono}>
          Open the replay {result.replayRunId}
        </Link>
      </p>
      {result.stoppedAt ? (
        <p className={styles.stopped} role="note">
          The replay stopped at <code>{result.stoppedAt.position}</code>: {result.stoppedAt.message}
        </p>
      ) : null}
      <DivergenceList divergences={result.divergences} labels={LABELS} label="Divergences of the replay" />
    </section>
  );
}

/** the replay as it goes: working, refused (the server's words), or its result */
export function ReplayOutcome({ replay }: { replay: ReplayState }) {
  if (replay.isPending) {
    return (
      <p className={styles.working} role="status">
        <Spinner />
        Replaying against the skill&apos;s latest version, answered from the recording…
      </p>
    );
  }
  if (replay.error) {
    return (
      <p className="form-error" role="alert">
        The run could not be replayed: {replay.error.message}
      </p>
    );
  }
  if (!replay.data) return null;
  return (
    <>
      {/* said once to a screen reader: the region itself is not live (it can be long) */}
      <span role="status" className="visually-hidden">
        Replay done: {replay.data.verdict}.
      </span>
      <ReplayResult result={replay.data} />
    </>
  );
}
