'use client';
// On a failed run's page, unasked: where it first went another way than the last completed run of
// the same skill (`GET /api/compare?b=<id>`), in one line, with the way to the whole comparison.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import { changeWords, divergenceNote, sidesOf } from './DivergenceList';
import { compareHref } from './compare-href';
import styles from './Replay.module.css';

type Props = { runId: string; status: string };

export function BaselineDivergence({ runId, status }: Props) {
  const isFailed = status === 'failed' || status === 'aborted';
  const query = useQuery({ ...routeQuery(routes.compareRuns, { query: { b: runId } }), enabled: isFailed, retry: false, staleTime: 60_000 });
  // the route answers a whole comparison when given two runs; given one, its baseline
  const view = query.data && 'baselineRunId' in query.data ? query.data : null;
  if (!isFailed || !view?.baselineRunId || !view.firstDivergence) return null;
  const d = view.firstDivergence;
  const [was, now] = sidesOf(d);
  const labels = ['the completed run', 'this run'] as const;
  return (
    <section className={styles.baseline} aria-label="First divergence from the last completed run">
      <p>
        Against the last completed run of this skill,{' '}
        <Link href={`/runs/${encodeURIComponent(view.baselineRunId)}`} className={styles.mono}>
          {view.baselineRunId}
        </Link>
        , it first went another way at <code>{d.position}</code>: {changeWords(d.change, labels)}
        {was && now && was.status !== now.status ? ` (${was.status} → ${now.status})` : ''}.{' '}
        {divergenceNote(d) ? <span className={styles.dim}>{divergenceNote(d)} </span> : null}
        <Link href={compareHref(view.baselineRunId, runId)}>Open the comparison</Link>
      </p>
    </section>
  );
}
