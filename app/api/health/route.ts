import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { json } from '@/lib/server/http/route';
import { getAppHealth } from '@/lib/server/ops/get-health';
import { HealthView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// the same view either way; 503 while the store is unreachable, so a monitor can act on the status alone
export const GET = handle(routes.health, async () => {
  const { view, httpStatus } = await getAppHealth();
  return httpStatus === 200 ? view : json(HealthView.parse(view), httpStatus);
});
