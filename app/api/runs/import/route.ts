import { readTextBody, route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { importRuns, MAX_IMPORT_BYTES } from '@/lib/server/runs/import-runs';
import { ImportView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// the body is the exported file as it is (up to MAX_IMPORT_BYTES); it is checked whole before anything is written
export const POST = route({ view: ImportView, status: 201 }, async ({ req }) =>
  importRuns(await appHost(), [{ source: 'the uploaded file', text: await readTextBody(req, MAX_IMPORT_BYTES) }]),
);
