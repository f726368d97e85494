import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getRunState } from '@/lib/server/runs/get-run-state';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getRunState, async ({ params, query }) => getRunState(await appHost(), params.id, query));
