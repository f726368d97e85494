import { route, json } from '@/lib/server/http/route';
import { getAppHealth } from '@/lib/server/ops/get-health';
import { HealthView } from '@/lib/views';

export const dynamic = 'force-dynamic';

export const GET = route({}, async () => {
  const { view, httpStatus } = await getAppHealth();
  return json(HealthView.parse(view), httpStatus);
});
