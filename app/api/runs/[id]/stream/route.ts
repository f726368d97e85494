import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { streamCursor, streamRunEvents } from '@/lib/server/runs/stream-run-events';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.streamRun, async ({ params, query, req, signal }) =>
  streamRunEvents(await appHost(), params.id, { after: streamCursor(query.after, req.headers.get('last-event-id')), signal }),
);
