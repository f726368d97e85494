import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost, examplesDir } from '@/lib/server/app/app-host';
import { listAppSkills } from '@/lib/server/app/list-app-skills';
import { createSkill } from '@/lib/server/skills/create-skill';

export const dynamic = 'force-dynamic';

export const GET = handle(routes.listSkills, async () => ({ skills: (await listAppSkills()).skills }));

export const POST = handle(routes.createSkill, async ({ body }) => createSkill(await appHost(), body, { examplesDir: examplesDir() }));
