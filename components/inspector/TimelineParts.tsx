'use client';
// The pieces of the timeline: a round (lanes, model turn, tool calls), a lane's `Stage traces`
// list, a chain's `Steps` list. Every item is a button that selects it; the selected item is
// `aria-current`, the scrubber's item is marked too.
import type { RunTimelineView } from '@/lib/views';
import { itemDomId, latencyText, nestedText, recordingNote, stageName, tokensText, usageText } from './timeline-index';
import type { TimelineSelection } from './Timeline';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Inspector.module.css';

type Round = RunTimelineView['visits'][number]['rounds'][number];
type Chain = NonNullable<RunTimelineView['post']>;
type Trace = Round['lanes'][number]['traces'][number];

const RUNG_TITLES: Record<string, string> = {
  'prompt-assembly': 'prompt-assembly',
  'post-model': 'post-model',
  'pre-tool': 'pre-tool',
  'post-tool': 'post-tool',
  finalize: 'finalize',
};

/** the marks every selectable item carries */
function marks(id: string, sel: TimelineSelection) {
  return {
    id: itemDomId(id),
    'aria-current': sel.selected === id ? ('true' as const) : undefined,
    'data-selected': sel.selected === id || undefined,
    'data-scrubbed': sel.scrubbed === id || undefined,
  };
}

/** `rungs`: the rungs the skill has stages on — a lane no stage can ever fill is left out */
export function RoundView({ round: r, currency, rungs, ...sel }: { round: Round; currency: string | null; rungs: ReadonlySet<string> } & TimelineSelection) {
  // the items are disabled until hydrated: a click on the server's HTML reaches no handler and is lost
  const hydrated = useHydrated();
  const lane = (rung: string) => r.lanes.find((l) => l.rung === rung)?.traces ?? [];
  const laneView = (rung: string) => (rungs.has(rung) || lane(rung).length ? <Lane key={rung} rung={rung} traces={lane(rung)} {...sel} /> : null);
  // with Failed only, the turn or the calls with nothing left in scope are hidden (no empty headers), as a lane is
  const isTurnHidden = sel.scope !== null && !(r.model && sel.scope.has(r.model.id));
  const isToolsHidden = sel.scope !== null && !r.tools.some((t) => sel.scope!.has(t.id));
  return (
    <div className={styles.round} role="group" aria-label={`Round ${r.round}`} data-round={r.id}>
      <div className={styles.roundHead}>
        <span className={styles.roundTitle}>Round {r.round}</span>
        <span className={styles.dim}>{usageText(r.usage, currency)}</span>
        {r.rejected ? <span className={styles.rejected}>finish rejected: {r.rejected.errors}</span> : null}
      </div>
      <div className={styles.lanes}>
        {laneView('prompt-assembly')}
        <div className={styles.turnCol} hidden={isTurnHidden}>
          <span className={styles.laneTitle}>model turn</span>
          {r.model && (!sel.scope || sel.scope.has(r.model.id)) ? (
            <div {...marks(r.model.id, sel)} className={styles.item} data-status={r.model.finished ? 'finished' : 'ok'}>
              <button type="button" className={styles.itemButton} disabled={!hydrated} onClick={() => sel.onSelect(r.model!.id)}>
                <span className={styles.itemSummary}>{r.model.summary}</span>
                {r.model.text ? (
                  <span className={styles.turnText} title={r.model.text}>
                    {r.model.text}
                  </span>
                ) : null}
                <span className={styles.dim}>
                  {r.model.usage ? `${tokensText(r.model.usage)} · ` : ''}
                  {latencyText(r.model.latencyMs)}
                  {r.model.answeredFromLog !== null ? ' · from the log' : ''}
                  {recordingNote(r.model.fromRecording)}
                </span>
              </button>
            </div>
          ) : !r.model ? (
            <span className={styles.dim}>no turn recorded</span>
          ) : null}
        </div>
        {laneView('post-model')}
        {laneView('pre-tool')}
        <div className={styles.toolCol} hidden={isToolsHidden}>
          <span className={styles.laneTitle}>tool calls</span>
          {r.tools.length === 0 ? (
            <span className={styles.dim}>none</span>
          ) : (
            <ul className={styles.itemList} aria-label={`Tool calls of round ${r.round}`}>
              {r.tools
                .filter((t) => !sel.scope || sel.scope.has(t.id))
                .map((t) => (
                  <li key={t.id} {...marks(t.id, sel)} className={styles.item} data-status={t.status} aria-label={`${t.op} ${t.status}`}>
                    <button type="button" className={styles.itemButton} disabled={!hydrated} onClick={() => sel.onSelect(t.id)}>
                      <span className={styles.itemLabel}>
                        <code>{t.op}</code> <span className="status" data-status={t.status}>{t.status}</span>
                      </span>
                      <span className={styles.itemSummary}>{t.summary}</span>
                      {t.fromRecording ? <span className={styles.dim}>{recordingNote(t.fromRecording).slice(' · '.length)}</span> : null}
                    </button>
                  </li>
                ))}
            </ul>
          )}
        </div>
        {laneView('post-tool')}
        {laneView('finalize')}
      </div>
    </div>
  );
}

function Lane({ rung, traces, ...sel }: { rung: string; traces: Trace[] } & TimelineSelection) {
  const shown = sel.scope ? traces.filter((t) => sel.scope!.has(t.id)) : traces;
  const hydrated = useHydrated();
  if (sel.scope && shown.length === 0) return null;
  return (
    <div className={styles.lane} role="group" aria-label={`${rung} lane`}>
      <span className={styles.laneTitle}>{RUNG_TITLES[rung] ?? rung}</span>
      {shown.length === 0 ? (
        <span className={styles.dim}>{traces.length ? '' : 'no stages'}</span>
      ) : (
        <ul className={styles.itemList} aria-label="Stage traces">
          {shown.map((t) => (
            <li key={t.id} {...marks(t.id, sel)} className={styles.item} data-status={t.status} aria-label={t.label}>
              <button type="button" className={styles.itemButton} disabled={!hydrated} onClick={() => sel.onSelect(t.id)}>
                <span className={styles.itemLabel}>
                  <code>{stageName(t)}</code>{' '}
                  <span className="status" data-status={t.status}>
                    {t.status}
                  </span>
                </span>
                <span className={styles.itemSummary}>{t.summary}</span>
                {t.fromRecording ? <span className={styles.dim}>{recordingNote(t.fromRecording).slice(' · '.length)}</span> : null}
                {t.status === 'refused' && t.effects.missing.length ? <span className={styles.missing}>missing grant: {t.effects.missing.join(', ')}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function StepList({ title, chain, ...sel }: { title: string; chain: Chain } & TimelineSelection) {
  const steps = sel.scope ? chain.steps.filter((s) => sel.scope!.has(s.id)) : chain.steps;
  const hydrated = useHydrated();
  if (sel.scope && steps.length === 0) return null;
  return (
    <div className={styles.chain} role="group" aria-label={`${title} ${chain.phase === '__post__' ? '' : `of ${chain.phase}`}`.trim()}>
      <span className={styles.laneTitle}>{title}</span>
      {steps.length === 0 ? (
        <span className={styles.dim}>no steps recorded</span>
      ) : (
        <ol className={styles.stepList} aria-label="Steps">
          {steps.map((s) => (
            <li key={s.id} {...marks(s.id, sel)} className={styles.item} data-status={s.status} aria-label={s.label}>
              <button type="button" className={styles.itemButton} disabled={!hydrated} onClick={() => sel.onSelect(s.id)}>
                <span className={styles.itemLabel}>
                  <code>{s.position}</code> {s.type}{' '}
                  <span className="status" data-status={s.status}>
                    {s.status}
                  </span>
                  {s.branch !== 'none' ? <span className={styles.branch}>on_error: {s.branch}</span> : null}
                </span>
                <span className={styles.itemSummary}>{s.error ? s.error.message.split('\n')[0] : s.summary}</span>
                <span className={styles.dim}>
                  {latencyText(s.durationMs)}
                  {s.answeredFromLog !== null ? ' · from the log' : ''}
                  {recordingNote(s.fromRecording)}
                  {s.nested ? ` · ${nestedText(s.nested)}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
