import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { forkPointValue, launchFork } from '@/lib/server/runs/fork-run';
import { ForkBody, ForkedRunView, ForkPointView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// an empty body reruns from the failed step with the latest version; the fork goes on in the background
export const POST = route<{ id: string }, ForkBody>({ body: ForkBody, bodyOptional: true, view: ForkedRunView, status: 201 }, async ({ params, body }) =>
  launchFork(await appHost(), params.id, body),
);

// ?at=POSITION[&version=]: the value there, for the fork editor
export const GET = route<{ id: string }>({ view: ForkPointView }, async ({ params, url }) =>
  forkPointValue(await appHost(), params.id, url.searchParams.get('at'), { version: url.searchParams.get('version') ?? undefined }),
);
