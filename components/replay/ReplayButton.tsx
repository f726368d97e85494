'use client';
// The `Replay` button: re-executes the run against the skill's latest version, answered from its
// recording (no model is called). What it found is drawn by ReplayOutcome wherever the page puts
// it; both share the state of useReplay. The button keeps its name while it works.
import type { ReplayState } from './use-replay';
import { useHydrated } from '@/components/common/use-hydrated';

type Props = {
  replay: ReplayState;
  /** the run's status: a run still going cannot be replayed yet */
  status: string;
};

export function ReplayButton({ replay, status }: Props) {
  const isEnded = status !== 'running' && status !== 'queued';
  // disabled until hydrated: a click on the server's HTML reaches no handler (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className="btn"
      onClick={() => replay.mutate()}
      disabled={!hydrated || !isEnded || replay.isPending}
      aria-busy={replay.isPending || undefined}
      title={isEnded ? "Run it again against the skill's latest version, answered from its recording: no model is called" : 'A run can be replayed once it has ended'}
    >
      Replay
    </button>
  );
}
