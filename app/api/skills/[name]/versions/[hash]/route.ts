import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getVersion } from '@/lib/server/skills/get-version';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getVersion, async ({ params }) => getVersion(await appHost(), params.name, params.hash));
