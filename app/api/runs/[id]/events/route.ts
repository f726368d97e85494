import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { listRunEvents } from '@/lib/server/runs/list-run-events';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.listRunEvents, async ({ params, query }) => listRunEvents(await appHost(), params.id, query));
