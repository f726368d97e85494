import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getRun } from '@/lib/server/runs/run-summary';
import { withDrivenHere } from '@/lib/server/runs/is-driven-here';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getRun, async ({ params }) => {
  const host = await appHost();
  return withDrivenHere(host, await getRun(host, params.id));
});
