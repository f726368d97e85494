import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getRun } from '@/lib/server/runs/run-summary';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getRun, async ({ params }) => getRun(await appHost(), params.id));
