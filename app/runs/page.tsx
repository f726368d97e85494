// Runs, newest first, narrowed by the filters the URL names (components/runs/run-filters.ts), a
// keyset page at a time, with the chart of the filtered runs over time. The first page and the
// chart's numbers are read here, so the page paints whole before any script; RunsExplorer takes
// over from there (filters, scrolling, live updates).
import { appHost } from '@/lib/server/app/app-host';
import { listRuns } from '@/lib/server/runs/list-runs';
import { runStats } from '@/lib/server/runs/run-stats';
import { listSkills } from '@/lib/server/skills/list-skills';
import { RunsExplorer } from '@/components/runs/RunsExplorer';
import { RUN_CHART_BUCKETS, RUN_PAGE_SIZE, parseRunFilters, toRunQuery } from '@/components/runs/run-filters';
import { ImportRuns } from '@/components/replay/ImportRuns';
import styles from '@/components/runs/RunList.module.css';
import { storePage } from '@/app/store-page';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Runs · Stagecraft' };

export default storePage('/runs', async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { filters } = parseRunFilters(await searchParams);
  const now = Date.now();
  const query = toRunQuery(filters, now);
  const host = await appHost();
  const [page, stats, skills] = await Promise.all([listRuns(host, { ...query, limit: RUN_PAGE_SIZE }), runStats(host, { ...query, buckets: RUN_CHART_BUCKETS }), listSkills(host)]);
  const liveSkills = skills.map((s) => s.name);
  // a deleted skill's runs stay listed, so it stays a choice too
  const skillChoices = [...new Set([...liveSkills, ...page.runs.map((r) => r.skill)])].sort();
  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <div>
          <h1>Runs</h1>
          <p className={styles.lede}>Every run of every skill, newest first. Filter, search, and open one to see what happened.</p>
        </div>
        <ImportRuns />
      </div>
      <RunsExplorer initial={{ filters, now, page, stats }} skills={skillChoices} liveSkills={liveSkills} />
    </main>
  );
});
