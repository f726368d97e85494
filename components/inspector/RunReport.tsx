// The `Run report` region: what the kernel derived from the events (deriveReport) — the outcome and
// why, what failed, step counts, the version it ran (linked to the studio at that version), and which
// process drove each part of the run. An error is said once here, in the summary's sentence (its
// first line): the row of what failed names its code and where, and links to the error in full
// (message, where it was raised, stack) in Details — the one place it shows whole.
import Link from 'next/link';
import type { RunDriverView, RunReportView } from '@/lib/views';
import { countParts, reusedCounts, runUsageText, studioHref } from './timeline-index';
import { errorLine } from './failure-words';
import { useHydrated } from '@/components/common/use-hydrated';
import { cutShortWords, type CutShortView } from '@/lib/views/cut-short';
import styles from './Inspector.module.css';

type Props = {
  report: RunReportView;
  status: string;
  skill: string;
  version: string | null;
  drivers: RunDriverView[];
  /** `reused`: how many of the turns counted were answered from a recording (the model was not called for them) */
  usage: { inputTokens: number; outputTokens: number; latencyMs: number; cost: number | null; reused?: number; tokensNotReported?: { turns: number; of: number; reportedCost: number | null } };
  currency: string | null;
  /** the step a user's abort cut short (from the run's error): a step is recorded when it ends, so nothing else names it */
  cutShort?: CutShortView | null;
  /** select an item of the timeline (what failed, what blocked) */
  onSelect: (id: string) => void;
  /** the skill declares capability stages (the timeline's program): without them, and none counted, no Stages card ("0" on most runs' pages) */
  declaresStages: boolean;
};

const OUTCOME_WORDS: Record<string, string> = { succeeded: 'succeeded', blocked: 'blocked', failed: 'failed' };

const counted = (by: Record<string, number> | undefined) =>
  by
    ? Object.entries(by)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')
    : '';

/**
 * A count card's figure, with how many of it a replay or a fork reused from the recording and its
 * statuses dim: `2 (all 2 reused from the recording; 2 ok)` (countParts) — the four cards alike.
 */
function CountFigure({ count, reused, statuses }: { count: number; reused: number; statuses: string }) {
  const p = countParts(count, reused, statuses);
  return (
    <>
      {p.text}
      {p.dim ? <span className={styles.dim}>{p.dim}</span> : null}
      {p.close}
    </>
  );
}

function driverText(d: RunDriverView): string {
  const who = d.worker ? `worker ${d.worker}` : (d.kind ?? 'unknown');
  const where = [d.host, d.pid !== null ? `pid ${d.pid}` : null].filter(Boolean).join(', ');
  return `${who}${where ? ` (${where})` : ''}`;
}

/** Details, brought into view once it shows what was selected */
function showDetails() {
  requestAnimationFrame(() => document.getElementById('details-title')?.parentElement?.scrollIntoView({ block: 'nearest' }));
}

/** the way from a row of the report to an error in full: `id` selected in Details (`run`: the run's own error) */
function FullError({ id, onSelect }: { id: string; onSelect: (id: string) => void }) {
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      disabled={!hydrated}
      className={`${styles.linkButton} ${styles.textButton}`}
      onClick={() => {
        onSelect(id);
        showDetails();
      }}
    >
      full error in Details
    </button>
  );
}

/**
 * What a row of the report says of an error: its first line, unless the summary above says it
 * already; then only the way to it in full.
 */
function ErrorWords({ message, summary, id, onSelect }: { message: string; summary: string; id: string; onSelect: (id: string) => void }) {
  const line = errorLine(message);
  return summary.includes(line) ? <FullError id={id} onSelect={onSelect} /> : <code className={styles.errorLine}>{line}</code>;
}

export function RunReport({ report: r, status, skill, version, drivers, usage, currency, cutShort, onSelect, declaresStages }: Props) {
  const c = r.step_counts;
  // its ways to a step are disabled until hydrated: a click on the server's HTML reaches no handler and is lost
  const hydrated = useHydrated();
  // what the four count cards say was reused: one source for all four (the report's counts, or the usage's for an older report)
  const reused = reusedCounts(r, usage);
  const abort = r.aborted_by;
  const summary = r.summary ?? '';
  // the run's own error: its first line said by the summary already (then only the way to it in full)
  const isRunErrorSaid = !!r.error && summary.includes(errorLine(r.error.message));
  return (
    <section className={styles.report} aria-labelledby="run-report-title" data-status={status} data-outcome={r.outcome}>
      <div className={styles.reportHead}>
        <h2 id="run-report-title">Run report</h2>
        <span className="status" data-status={status}>
          {status}
        </span>
        {/* a finished run's outcome beside its status; a failed or aborted run's status says it all (an
            `aborted` beside an amber `blocked` would read as two verdicts) */}
        {status === 'completed' ? (
          <span className="status" data-status={r.outcome} title="the outcome of the run">
            {OUTCOME_WORDS[r.outcome]}
          </span>
        ) : null}
      </div>
      {r.summary ? <p className={styles.summary}>{r.summary}</p> : null}
      <dl className={styles.facts}>
        {abort?.by === 'request' ? (
          <div className={styles.wide}>
            <dt>Aborted by</dt>
            <dd>
              a user&apos;s request ({abort.requestedBy}): {abort.reason}
            </dd>
          </div>
        ) : null}
        {abort?.by === 'request' && cutShort ? (
          <div className={styles.wide}>
            <dt>Cut short</dt>
            <dd>
              {cutShortWords(cutShort)} when the abort came: a step is recorded only when it ends, so nothing of it is kept
            </dd>
          </div>
        ) : null}
        {abort?.by === 'step' ? (
          <div className={styles.wide}>
            <dt>Aborted by</dt>
            <dd>
              step{' '}
              <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => onSelect(abort.position)}>
                {abort.position}
              </button>{' '}
              ({abort.type}), whose <code>on_error: {abort.onError}</code> stops the run — not a user&apos;s abort
            </dd>
          </div>
        ) : null}
        {abort?.by === 'contract' ? (
          <div className={styles.wide}>
            <dt>Aborted by</dt>
            <dd>the skill&apos;s contract{abort.phase ? ` (phase ${abort.phase})` : ''}: a value broke its schema</dd>
          </div>
        ) : null}
        {r.blocked_by ? (
          <div className={styles.wide}>
            <dt>Blocked by</dt>
            <dd>
              stage{' '}
              <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => onSelect(r.blocked_by!.position)}>
                {r.blocked_by.stage}
              </button>
              , which denied tool call {r.blocked_by.call}: {r.blocked_by.reason}
            </dd>
          </div>
        ) : r.block_reason && !r.error && !r.failed_step && abort?.by !== 'request' ? (
          // (a run aborted on request: its block reason is the request's words, shown above)
          <div className={styles.wide}>
            <dt>Block reason</dt>
            <dd>{r.block_reason}</dd>
          </div>
        ) : null}
        {r.failed_step ? (
          <div className={styles.wide}>
            <dt>Failed step</dt>
            <dd>
              <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => onSelect(r.failed_step!.position)}>
                {r.failed_step.position}
              </button>{' '}
              ({r.failed_step.type}, on_error: {r.failed_step.on_error}) <ErrorWords message={r.failed_step.error} summary={summary} id={r.failed_step.position} onSelect={onSelect} />
            </dd>
          </div>
        ) : r.failed_stage ? (
          <div className={styles.wide}>
            <dt>Failed stage</dt>
            <dd>
              <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => r.failed_stage?.position && onSelect(r.failed_stage.position)}>
                {r.failed_stage.phase} › {r.failed_stage.rung} › {r.failed_stage.stage}
              </button>{' '}
              ({r.failed_stage.capability}, round {r.failed_stage.round}) <ErrorWords message={r.failed_stage.error} summary={summary} id={r.failed_stage.position || 'run'} onSelect={onSelect} />
            </dd>
          </div>
        ) : r.error ? (
          <div className={styles.wide}>
            <dt>Error</dt>
            <dd>
              {r.error.code ? <code>{r.error.code}</code> : null}
              {isRunErrorSaid ? null : (
                <>
                  {' '}
                  <code className={styles.errorLine}>{errorLine(r.error.message)}</code>
                </>
              )}
              {r.error.position ? (
                <>
                  {' '}
                  at{' '}
                  <button type="button" className={styles.linkButton} disabled={!hydrated} onClick={() => onSelect(r.error!.position!)}>
                    {r.error.position}
                  </button>
                </>
              ) : null}
              {isRunErrorSaid ? (
                <>
                  {' '}
                  <FullError id="run" onSelect={onSelect} />
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Model rounds</dt>
          <dd>
            <CountFigure count={c.model} reused={reused.model} statuses="" />
          </dd>
        </div>
        {/* a replay's steps answered from the recording say so on each card, as the summary counts them */}
        <div>
          <dt>Tool calls</dt>
          <dd>
            <CountFigure count={c.tool} reused={reused.tool} statuses={counted(c.tool_by_status)} />
          </dd>
        </div>
        {declaresStages || c.stage > 0 ? (
          <div>
            <dt>Stages</dt>
            <dd>
              <CountFigure count={c.stage} reused={reused.stage} statuses={counted(c.stage_by_status)} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Processor steps</dt>
          <dd>
            <CountFigure count={c.processor} reused={reused.processor} statuses={counted(c.processor_by_status)} />
          </dd>
        </div>
        {/* the words for turns whose endpoint reported no tokens are long: two columns, as Version */}
        <div className={usage.tokensNotReported ? styles.twoColumns : undefined}>
          <dt>Usage</dt>
          <dd>{runUsageText(usage, currency)}</dd>
        </div>
        {/* two columns: skill@hash is wider than one at 1024 px, and was broken inside the hash */}
        <div className={styles.twoColumns}>
          <dt>Version</dt>
          <dd>
            {version ? (
              <Link href={studioHref(skill, version)} className={styles.mono} title={`${skill} at version ${version}, in the studio`}>
                {skill}@<wbr />
                <span className={styles.nowrap}>{version.slice(0, 12)}</span>
              </Link>
            ) : (
              '—'
            )}
            {r.version?.resumed_with.length ? <span className={styles.dim}> (resumed with {r.version.resumed_with.map((h) => h.slice(0, 12)).join(', ')})</span> : null}
          </dd>
        </div>
        {r.changed_paths.length ? (
          <div className={styles.wide}>
            <dt>Changed</dt>
            <dd className={styles.mono}>{r.changed_paths.join(', ')}</dd>
          </div>
        ) : null}
        {drivers.length ? (
          <div className={styles.wide}>
            <dt>Driven by</dt>
            <dd>
              <ul className={styles.drivers} aria-label="Drivers">
                {drivers.map((d) => (
                  <li key={d.fromSeq}>
                    events {d.fromSeq}–{d.toSeq}: {driverText(d)}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
