import { z } from 'zod';
import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { validateFiles } from '@/lib/server/skills/validate-bundle';
import { Files, ValidationView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// `skill`: the stored skill these files are (to be) a version of, for the name check
const Body = z.object({ files: Files, skill: z.string().optional() }).strict();

export const POST = route({ body: Body, view: ValidationView }, async ({ body }) =>
  validateFiles(body.files, { knownSkills: await (await appHost()).skills.skillNames(), skillName: body.skill }),
);
