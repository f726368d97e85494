import { route, intParam } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { listRunEvents, MAX_EVENT_PAGE } from '@/lib/server/runs/list-run-events';
import { EventPageView } from '@/lib/views';

export const dynamic = 'force-dynamic';

export const GET = route<{ id: string }>({ view: EventPageView }, async ({ params, url }) =>
  listRunEvents(await appHost(), params.id, { after: intParam(url, 'after', 0, 2 ** 31 - 1), limit: intParam(url, 'limit', 1, MAX_EVENT_PAGE) }),
);
