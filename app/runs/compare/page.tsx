// Two runs side by side (/runs/compare?a=&b=; with ?b= alone, A is the last completed run of B's
// skill before it): the server compares them (the operation behind `stagecraft compare` and
// GET /api/compare) and the page draws the comparison, with the other runs B is often set beside,
// and a form to name any two. A run that does not exist is said, with the form.
import Link from 'next/link';
import { appHost } from '@/lib/server/app/app-host';
import { comparePage, missingRunsProblem, type ComparePage } from '@/lib/server/runs/compare-page';
import { Comparison } from '@/components/replay/Comparison';
import { CompareForm, CompareSuggestions } from '@/components/replay/CompareForm';
import styles from '@/components/runs/RunLive.module.css';
import { sameRunNote } from '@/lib/views';
import { storePage } from '@/app/store-page';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Compare runs · Stagecraft' };

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export default storePage('/runs/compare', async function CompareRunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const a = one(query.a);
  const b = one(query.b);
  let page: ComparePage | null = null;
  let problem: string | null = null;
  // one run set beside itself is always 'identical', which says nothing: asked for another instead
  if (a && b && a === b) problem = sameRunNote(a);
  else if (b) {
    try {
      page = await comparePage(await appHost(), a ?? null, b);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'run_not_found') throw e;
      problem = await missingRunsProblem(await appHost(), a ?? null, b);
    }
  }
  if (page && !page.view) problem = `There is no completed run of its skill before ${b} to set it beside: name run A.${page.suggestions.length ? ' Or pick one of the runs below.' : ''}`;
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
      {page?.view ? (
        <>
          <Comparison view={page.view} isBaseline={page.isBaseline} lineage={page.lineage} />
          <CompareSuggestions b={page.view.b.runId} suggestions={page.suggestions} />
        </>
      ) : null}
      <CompareForm a={page?.view?.a.runId ?? a ?? ''} b={b ?? ''} problem={problem} isFolded={Boolean(page?.view)} />
      {page && !page.view && b ? <CompareSuggestions b={b} suggestions={page.suggestions} /> : null}
    </main>
  );
});
