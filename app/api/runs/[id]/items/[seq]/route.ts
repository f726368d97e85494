import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getRunItem } from '@/lib/server/runs/get-run-item';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getRunItem, async ({ params }) => getRunItem(await appHost(), params.id, params.seq));
