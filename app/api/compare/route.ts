import { z } from 'zod';
import { route } from '@/lib/server/http/route';
import { appHost } from '@/lib/server/app/app-host';
import { compareOrBaseline } from '@/lib/server/runs/compare-runs';
import { BaselineDivergenceView, CompareView } from '@/lib/views';

export const dynamic = 'force-dynamic';

// ?a=&b=: the two runs; ?b= alone: b against the last completed run of its skill (a failed run's page)
export const GET = route({ view: z.union([CompareView, BaselineDivergenceView]) }, async ({ url }) =>
  compareOrBaseline(await appHost(), url.searchParams.get('a'), url.searchParams.get('b')),
);
