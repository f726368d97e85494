import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { listVersions } from '@/lib/server/skills/list-versions';
import { saveVersion } from '@/lib/server/skills/save-version';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.listVersions, async ({ params }) => ({ versions: await listVersions(await appHost(), params.name) }));

export const POST = handle(routes.saveVersion, async ({ params, body }) =>
  saveVersion(await appHost(), params.name, { files: body.files, ...(body.push ? { origin: 'push', createIfMissing: true } : {}) }),
);
