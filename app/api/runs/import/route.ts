import { routes, UPLOADED_IMPORT_SOURCE } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { importRuns } from '@/lib/server/runs/import-runs';

export const dynamic = 'force-dynamic';

// the body is the exported file as it is (routes.importRuns.rawBody caps it); it is checked whole before anything is written
export const POST = handle(routes.importRuns, async ({ body }) => importRuns(await appHost(), [{ source: UPLOADED_IMPORT_SOURCE, text: body }]));
