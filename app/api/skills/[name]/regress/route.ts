import { routes } from '@/lib/api/routes';
import { handle } from '@/lib/server/http/handle';
import { appHost } from '@/lib/server/app/app-host';
import { regressSkill } from '@/lib/server/runs/regress-skill';

export const dynamic = 'force-dynamic';

// `files`: the editor's unsaved text, laid over the version; the app never passes `trust`
export const POST = handle(routes.regressSkill, async ({ params, body }) =>
  regressSkill(await appHost(), params.name, { version: body.version, files: body.files, limit: body.limit }),
);
