import { z } from 'zod';
import { route, intParam } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { listRuns } from '@/lib/server/runs/list-runs';
import { launchRun } from '@/lib/server/runs/launch-run';
import { parseStatuses } from '@/lib/server/runs/run-status';
import { RunListItemView, StartRunBody, StartedRunView } from '@/lib/views';

export const dynamic = 'force-dynamic';

export const GET = route({ view: z.object({ runs: z.array(RunListItemView) }).strict() }, async ({ url }) => ({
  runs: await listRuns(await appHost(), {
    skill: url.searchParams.get('skill') ?? undefined,
    status: parseStatuses(url.searchParams.get('status')),
    limit: intParam(url, 'limit', 1, 500),
  }),
}));

export const POST = route({ body: StartRunBody, view: StartedRunView, status: 201 }, async ({ body }) => launchRun(await appHost(), body));
