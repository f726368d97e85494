import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getRunTimeline } from '@/lib/server/runs/get-run-timeline';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getRunTimeline, async ({ params, query }) => getRunTimeline(await appHost(), params.id, query));
