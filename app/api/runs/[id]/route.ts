import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { getRun } from '@/lib/server/runs/run-summary';
import { RunView } from '@/lib/views';

export const dynamic = 'force-dynamic';

export const GET = route<{ id: string }>({ view: RunView }, async ({ params }) => getRun(await appHost(), params.id));
