import { json, route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { exportFileName, exportRun } from '@/lib/server/runs/export-run';

export const dynamic = 'force-dynamic';

export const GET = route<{ id: string }>({}, async ({ params }) =>
  json(await exportRun(await appHost(), params.id), 200, { 'content-disposition': `attachment; filename="${exportFileName(params.id)}"` }),
);
