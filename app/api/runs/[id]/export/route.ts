import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { json } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { exportFileName, exportRun } from '@/lib/server/runs/export-run';
import { RunExportView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// a download: the view, checked, with the file name to save it as
export const GET = handle(routes.exportRun, async ({ params }) =>
  json(RunExportView.parse(await exportRun(await appHost(), params.id)), 200, { 'content-disposition': `attachment; filename="${exportFileName(params.id)}"` }),
);
