import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getRunValue } from '@/lib/server/runs/get-run-value';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getRunValue, async ({ params, query }) => getRunValue(await appHost(), params.id, query));
