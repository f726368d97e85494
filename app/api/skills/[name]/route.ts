import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { getSkill } from '@/lib/server/skills/get-skill';
import { renameSkill } from '@/lib/server/skills/rename-skill';
import { deleteSkill } from '@/lib/server/skills/delete-skill';
import { RenameSkillBody, SkillDetailView } from '@/lib/views';

export const dynamic = 'force-dynamic';
type P = { name: string };

export const GET = route<P>({ view: SkillDetailView }, async ({ params }) => getSkill(await appHost(), params.name));

export const PATCH = route<P, { name: string }>({ body: RenameSkillBody, view: SkillDetailView }, async ({ params, body }) =>
  renameSkill(await appHost(), params.name, body.name),
);

export const DELETE = route<P>({}, async ({ params }) => {
  await deleteSkill(await appHost(), params.name);
  return new Response(null, { status: 204 });
});
