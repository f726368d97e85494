import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { restoreVersion } from '@/lib/server/skills/restore-version';

export const dynamic = 'force-dynamic';

export const POST = handle(routes.restoreVersion, async ({ params }) => restoreVersion(await appHost(), params.name, params.hash));
