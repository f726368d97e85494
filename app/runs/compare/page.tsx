// Two runs side by side (/runs/compare?a=&b=): the server compares them (the same operation as
// `stagecraft compare` and GET /api/compare) and the page draws the comparison. Without two runs,
// or with one that does not exist, the form to name them, and what was wrong.
import Link from 'next/link';
import { appHost } from '@/lib/server/app/app-host';
import { compareRuns } from '@/lib/server/runs/compare-runs';
import type { CompareView } from '@/lib/views';
import { Comparison } from '@/components/replay/Comparison';
import { CompareForm } from '@/components/replay/CompareForm';
import styles from '@/components/runs/RunLive.module.css';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Compare runs · Stagecraft' };

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const a = one(query.a);
  const b = one(query.b);
  let view: CompareView | null = null;
  let problem: string | null = null;
  if (a && b) {
    try {
      view = await compareRuns(await appHost(), a, b);
    } catch (e) {
      const err = e as { code?: unknown; message?: string };
      if (err.code !== 'run_not_found') throw e;
      problem = err.message ?? 'One of the runs does not exist.';
    }
  }
  return (
    <main className={styles.page}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <ol>
          <li>
            <Link href="/runs">Runs</Link>
          </li>
          <li>Compare</li>
        </ol>
      </nav>
      <h1 className={styles.title}>Compare runs</h1>
      {view ? <Comparison view={view} /> : <CompareForm a={a ?? ''} b={b ?? ''} problem={problem} />}
    </main>
  );
}
