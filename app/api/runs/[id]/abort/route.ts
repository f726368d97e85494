import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { requestAbort } from '@/lib/server/runs/request-abort';

export const dynamic = 'force-dynamic';

export const POST = handle(routes.abortRun, async ({ params, body }) => requestAbort(await appHost(), params.id, body));
