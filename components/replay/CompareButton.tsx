'use client';
// `Compare`: opens the compare view of this run beside the run it is most often set beside — its
// parent (for a replay or a fork), else its newest replay or fork, else the last completed run of
// its skill before it (the page finds that one). The compare view offers the others, and any two.
import { useRouter } from 'next/navigation';
import type { RunView } from '@/lib/views';
import { compareTargetHref } from './compare-href';

type Props = { run: Pick<RunView, 'runId' | 'kind' | 'parentRunId' | 'derivedRuns'> };

export function CompareButton({ run }: Props) {
  const router = useRouter();
  return (
    <button type="button" className="btn" onClick={() => router.push(compareTargetHref(run))} title="Set this run beside another, step by step">
      Compare
    </button>
  );
}
