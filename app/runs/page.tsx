// Runs, newest first, narrowed by ?status=, ?skill=, ?q= (search) and ?attention=1, a keyset page at a time.
import { appHost } from '@/lib/server/app/app-host';
import { listRuns } from '@/lib/server/runs/list-runs';
import { listSkills } from '@/lib/server/skills/list-skills';
import { RUN_STATUS_WORDS, type RunFilterQuery, type RunStatusWord } from '@/lib/views';
import { RunListLive } from '@/components/runs/RunListLive';
import { RunListFilters } from '@/components/runs/RunListFilters';
import { RunListEmpty } from '@/components/runs/RunListEmpty';
import { ImportRuns } from '@/components/replay/ImportRuns';
import styles from '@/components/runs/RunList.module.css';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Runs · Stagecraft' };

const PAGE_SIZE = 100;

const isRunStatus = (s: string): s is RunStatusWord => (RUN_STATUS_WORDS as readonly string[]).includes(s);
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const wantedStatus = one(query.status);
  const status = wantedStatus && isRunStatus(wantedStatus) ? wantedStatus : undefined;
  const skill = one(query.skill);
  const q = one(query.q)?.slice(0, 200);
  const attention = one(query.attention) === '1' ? true : undefined;
  const filter: RunFilterQuery = { skill, status: status ? [status] : undefined, q, attention };
  const host = await appHost();
  const [page, skills] = await Promise.all([listRuns(host, { ...filter, limit: PAGE_SIZE }), listSkills(host)]);
  const liveSkills = skills.map((s) => s.name);
  // a deleted skill's runs stay listed, so it stays a choice too
  const skillChoices = [...new Set([...liveSkills, ...page.runs.map((r) => r.skill), ...(skill ? [skill] : [])])].sort();
  const isFiltered = Boolean(status || skill || q || attention);
  const now = Date.now();
  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <div>
          <h1>Runs</h1>
          <p className={styles.lede}>
            {page.runs.length === 0 ? 'Every run of every skill, newest first.' : `Every run${isFiltered ? ' matching the filters' : ''}, newest first.`}
          </p>
        </div>
        <ImportRuns />
      </div>
      {page.runs.length || isFiltered ? <RunListFilters status={status} skill={skill} q={q} attention={attention ?? false} skills={skillChoices} /> : null}
      {wantedStatus && !status ? (
        <p className="form-error" role="alert">
          There is no status “{wantedStatus}”: a run is {RUN_STATUS_WORDS.join(', ')}. Showing every status.
        </p>
      ) : null}
      {page.runs.length ? (
        <RunListLive key={JSON.stringify(filter)} initial={page} filter={filter} pageSize={PAGE_SIZE} liveSkills={liveSkills} now={now} />
      ) : (
        <RunListEmpty isFiltered={isFiltered} />
      )}
    </main>
  );
}
