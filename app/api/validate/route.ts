import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { validateFiles } from '@/lib/server/skills/validate-bundle';

export const dynamic = 'force-dynamic';

export const POST = handle(routes.validate, async ({ body }) =>
  validateFiles(body.files, { knownSkills: await (await appHost()).skills.skillNames(), skillName: body.skill }),
);
