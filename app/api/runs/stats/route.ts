import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { runStats } from '@/lib/server/runs/run-stats';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.runStats, async ({ query }) => runStats(await appHost(), query));
