import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { replayRun } from '@/lib/server/runs/replay-run';
import { ReplayBody, ReplayView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// the app never passes `trust`: imported code replays only in the sandbox
export const POST = route<{ id: string }, ReplayBody>({ body: ReplayBody, bodyOptional: true, view: ReplayView }, async ({ params, body }) =>
  replayRun(await appHost(), params.id, { version: body.version }),
);
