import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { forkPointValue, launchFork } from '@/lib/server/runs/fork-run';

export const dynamic = 'force-dynamic';

// an empty body reruns from the failed step with the latest version; the fork goes on in the background
export const POST = handle(routes.forkRun, async ({ params, body }) => launchFork(await appHost(), params.id, body));

// ?at=POSITION[&version=]: the value there, for the fork editor
export const GET = handle(routes.forkPoint, async ({ params, query }) => forkPointValue(await appHost(), params.id, query.at, { version: query.version }));
