import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { getVersion } from '@/lib/server/skills/get-version';
import { VersionView } from '@/lib/views';

export const dynamic = 'force-dynamic';

export const GET = route<{ name: string; hash: string }>({ view: VersionView }, async ({ params }) => getVersion(await appHost(), params.name, params.hash));
