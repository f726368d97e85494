// Recent runs, newest first, narrowed by ?status= and ?skill=.
import { appHost } from '@/lib/server/app/app-host';
import { listRuns } from '@/lib/server/runs/list-runs';
import { listSkills } from '@/lib/server/skills/list-skills';
import { RUN_STATUS_WORDS } from '@/lib/views';
import { RunList } from '@/components/runs/RunList';
import { RunListFilters } from '@/components/runs/RunListFilters';
import { RunListEmpty } from '@/components/runs/RunListEmpty';
import { RunListAutoRefresh } from '@/components/runs/RunListAutoRefresh';
import styles from '@/components/runs/RunList.module.css';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Runs · Stagecraft' };

const RUN_LIMIT = 100;

type RunStatusWord = (typeof RUN_STATUS_WORDS)[number];
const isRunStatus = (s: string): s is RunStatusWord => (RUN_STATUS_WORDS as readonly string[]).includes(s);
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const wantedStatus = one(query.status);
  const status = wantedStatus && isRunStatus(wantedStatus) ? wantedStatus : undefined;
  const skill = one(query.skill);
  const host = await appHost();
  const [runs, skills] = await Promise.all([listRuns(host, { skill, status: status ? [status] : undefined, limit: RUN_LIMIT }), listSkills(host)]);
  const liveSkills = skills.map((s) => s.name);
  // a deleted skill's runs stay listed, so it stays a choice too
  const skillChoices = [...new Set([...liveSkills, ...runs.map((r) => r.skill), ...(skill ? [skill] : [])])].sort();
  const isFiltered = Boolean(status || skill);
  const now = Date.now();
  return (
    <main className={styles.page}>
      <div className={styles.head}>
        <div>
          <h1>Runs</h1>
          <p className={styles.lede}>
            {runs.length === 0
              ? 'Every run of every skill, newest first.'
              : `${runs.length === RUN_LIMIT ? `The latest ${RUN_LIMIT}` : runs.length} ${runs.length === 1 ? 'run' : 'runs'}${isFiltered ? ' matching the filters' : ''}, newest first.`}
          </p>
        </div>
        <RunListAutoRefresh isActive={runs.some((r) => r.status === 'running' || r.status === 'queued')} />
      </div>
      {runs.length || isFiltered ? <RunListFilters status={status} skill={skill} skills={skillChoices} /> : null}
      {wantedStatus && !status ? (
        <p className="form-error" role="alert">
          There is no status “{wantedStatus}”: a run is {RUN_STATUS_WORDS.join(', ')}. Showing every status.
        </p>
      ) : null}
      {runs.length ? <RunList runs={runs} liveSkills={liveSkills} now={now} /> : <RunListEmpty isFiltered={isFiltered} />}
    </main>
  );
}
