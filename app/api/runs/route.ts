import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { listRuns } from '@/lib/server/runs/list-runs';
import { launchRun } from '@/lib/server/runs/launch-run';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.listRuns, async ({ query }) => listRuns(await appHost(), query));

export const POST = handle(routes.startRun, async ({ body }) => launchRun(await appHost(), body));
