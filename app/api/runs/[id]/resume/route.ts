import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { requestResume } from '@/lib/server/runs/request-resume';

export const dynamic = 'force-dynamic';

export const POST = handle(routes.resumeRun, async ({ params }) => requestResume(await appHost(), params.id));
