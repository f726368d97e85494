import { z } from 'zod';
import { route } from '@/lib/server/http/route';
import { appHost, examplesDir } from '@/lib/server/app/app-host';
import { listSkills } from '@/lib/server/skills/list-skills';
import { createSkill } from '@/lib/server/skills/create-skill';
import { CreateSkillBody, SkillDetailView, SkillView } from '@/lib/views';

export const dynamic = 'force-dynamic';

export const GET = route({ view: z.object({ skills: z.array(SkillView) }).strict() }, async () => ({ skills: await listSkills(await appHost()) }));

export const POST = route({ body: CreateSkillBody, view: SkillDetailView, status: 201 }, async ({ body }) =>
  createSkill(await appHost(), body, { examplesDir: examplesDir() }),
);
