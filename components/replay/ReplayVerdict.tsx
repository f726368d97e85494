'use client';
// On a replay's page, once it has ended: whether it did what the run it replays did — identical, or
// where it first diverged and how many steps did — as `stagecraft replay` and the run page's Replay
// say (`GET /api/compare?a=<parent>&b=<replay>`). Before, the replay's own page said only that it was
// a replay: a diverged one read "completed" like an identical one, one click from the comparison.
import { useQuery } from '@tanstack/react-query';
import { routes } from '@/lib/api/routes';
import { routeQuery } from '@/lib/client/queries';
import { plural } from '@/lib/kernel/plural';
import { changeWords } from './DivergenceList';

type Props = { parentRunId: string; runId: string; status: string };

export function ReplayVerdict({ parentRunId, runId, status }: Props) {
  const ended = status === 'completed' || status === 'failed' || status === 'aborted';
  const query = useQuery({ ...routeQuery(routes.compareRuns, { query: { a: parentRunId, b: runId } }), enabled: ended, retry: false, staleTime: 60_000 });
  const view = query.data && 'identical' in query.data ? query.data : null;
  if (!ended || !view) return null;
  if (view.identical || !view.firstDivergence) return <>. It replayed identical: every step did as recorded.</>;
  const d = view.firstDivergence;
  return (
    <>
      . It diverged, first at <code>{d.position}</code>: {changeWords(d.change, ['the replayed run', 'this replay'])} ({plural(view.divergences.length, 'divergence')}).
    </>
  );
}
