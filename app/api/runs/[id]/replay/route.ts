import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { replayRun } from '@/lib/server/runs/replay-run';

export const dynamic = 'force-dynamic';

// the app never passes `trust`: imported code replays only in the sandbox
export const POST = handle(routes.replayRun, async ({ params, body }) => replayRun(await appHost(), params.id, { version: body.version }));
