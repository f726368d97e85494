import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { compareOrBaseline } from '@/lib/server/runs/compare-runs';

export const dynamic = 'force-dynamic';

// ?a=&b=: the two runs; ?b= alone: b against the last completed run of its skill (a failed run's page)
export const GET = handle(routes.compareRuns, async ({ query }) => compareOrBaseline(await appHost(), query.a ?? null, query.b));
