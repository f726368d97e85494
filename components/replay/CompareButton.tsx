'use client';
// `Compare`: opens the compare view of this run beside the run it is most often set beside — its
// parent (for a replay or a fork), else its newest replay or fork, else the last completed run of
// its skill before it (the page finds that one). The compare view offers the others, and any two.
import { useRouter } from 'next/navigation';
import type { RunView } from '@/lib/views';
import { compareTargetHref } from './compare-href';
import { useHydrated } from '@/components/common/use-hydrated';

type Props = { run: Pick<RunView, 'runId' | 'kind' | 'parentRunId' | 'derivedRuns'> };

export function CompareButton({ run }: Props) {
  const router = useRouter();
  // disabled until hydrated: a click on the server's HTML reaches no handler (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  return (
    <button type="button" className="btn" onClick={() => router.push(compareTargetHref(run))} disabled={!hydrated} title="Set this run beside another, step by step">
      Compare
    </button>
  );
}
