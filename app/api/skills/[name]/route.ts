import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { getSkill } from '@/lib/server/skills/get-skill';
import { renameSkill } from '@/lib/server/skills/rename-skill';
import { deleteSkill } from '@/lib/server/skills/delete-skill';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.getSkill, async ({ params }) => getSkill(await appHost(), params.name));

export const PATCH = handle(routes.renameSkill, async ({ params, body }) => renameSkill(await appHost(), params.name, body.name));

export const DELETE = handle(routes.deleteSkill, async ({ params }) => deleteSkill(await appHost(), params.name));
