import { z } from 'zod';
import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { listVersions } from '@/lib/server/skills/list-versions';
import { saveVersion } from '@/lib/server/skills/save-version';
import { FilesBody, SavedVersionView, VersionSummaryView, type Files } from '@/lib/views';

export const dynamic = 'force-dynamic';
type P = { name: string };

export const GET = route<P>({ view: z.object({ versions: z.array(VersionSummaryView) }).strict() }, async ({ params }) => ({
  versions: await listVersions(await appHost(), params.name),
}));

export const POST = route<P, { files: Files }>({ body: FilesBody, view: SavedVersionView, status: 201 }, async ({ params, body }) =>
  saveVersion(await appHost(), params.name, { files: body.files }),
);
