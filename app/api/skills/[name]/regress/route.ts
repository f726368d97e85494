import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { regressSkill } from '@/lib/server/runs/regress-skill';
import { RegressBody, RegressView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// `files`: the editor's unsaved text, laid over the version; the app never passes `trust`
export const POST = route<{ name: string }, RegressBody>({ body: RegressBody, bodyOptional: true, view: RegressView }, async ({ params, body }) =>
  regressSkill(await appHost(), params.name, { version: body.version, files: body.files, limit: body.limit }),
);
