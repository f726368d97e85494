// One run, live: the server renders it and its timeline as they stand; RunLive follows its event
// stream until it ends, and the inspector (report, timeline, details) reads the kernel's views.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { appHost } from '@/lib/server/app/app-host';
import { getRun } from '@/lib/server/runs/run-summary';
import { withDrivenHere } from '@/lib/server/runs/is-driven-here';
import { getRunTimelineOpening } from '@/lib/server/runs/get-run-timeline';
import type { RunTimelineView, RunView } from '@/lib/views';
import { RunLive } from '@/components/runs/RunLive';
import styles from '@/components/runs/RunLive.module.css';
import { storePage } from '@/app/store-page';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params) {
  return { title: `${(await params).id} · Runs · Stagecraft` };
}

export default storePage('/runs/[id]', async function RunPage({ params }: Params) {
  const { id } = await params;
  let run: RunView;
  try {
    const host = await appHost();
    run = withDrivenHere(host, await getRun(host, id));
  } catch (e) {
    if ((e as { code?: unknown }).code === 'run_not_found') notFound();
    throw e;
  }
  const host = await appHost();
  // the page of visits it opens on (a long run's others are read as they come into view); the page
  // still paints when the timeline cannot be built: the browser asks again and says why
  const timeline: RunTimelineView | null = await getRunTimelineOpening(host, id).catch(() => null);
  return (
    <main className={`${styles.page} ${styles.widePage}`}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <ol>
          <li>
            <Link href="/runs">Runs</Link>
          </li>
          <li>
            <Link href={`/runs?skill=${encodeURIComponent(run.skill)}`}>{run.skill}</Link>
          </li>
        </ol>
      </nav>
      <h1 className={styles.title}>
        Run <code>{run.runId}</code>
      </h1>
      <RunLive key={run.runId} initial={run} initialTimeline={timeline} now={Date.now()} />
    </main>
  );
});
