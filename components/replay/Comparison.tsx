'use client';
// Two runs side by side (a region `Comparison`): the first divergence summarized on top, each run's
// facts with tokens and time, then every step aligned by position — status, time and tokens on
// each side, the difference marked (status, output, only in A, only in B, not reached) — and each
// difference in full: both values and the structural diff. Long stretches of unchanged steps fold
// away (a run of a thousand steps stays readable) and can be shown.
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { noneReported, notReportedText } from '@/lib/kernel/turn-usage';
import { forkEditIndex, forkEditWords, insideAnsweredNote, otherSkillsNote, type CompareRowView, type CompareSideView, type CompareView } from '@/lib/views';
import { formatDuration, modelLabel } from '@/components/common/format';
import { NameParts } from '@/components/common/NameParts';
import { changeWords, divergenceNote, DivergenceList } from './DivergenceList';
import { visibleRows } from './compare-rows';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Replay.module.css';
import { plural } from '@/lib/kernel/plural';
import { fullValue, shortValue } from '@/components/inspector/scrubber/state-diff';

const LABELS = ['A', 'B'] as const;
const ROW_WORDS: Record<CompareRowView['change'], string> = {
  same: '',
  status: 'status changed',
  output: 'output changed',
  added: 'only in B',
  removed: 'only in A',
  not_reached: 'not reached by B',
};

function signed(n: number, unit: string): string {
  if (n === 0) return `same ${unit}`;
  return `${n > 0 ? '+' : '−'}${Math.abs(n).toLocaleString('en-US')} ${unit}`;
}

function SideCard({ side, label, other }: { side: CompareSideView; label: (typeof LABELS)[number]; other?: CompareSideView }) {
  const tokens = side.tokens.input + side.tokens.output;
  const inside = insideAnsweredNote(side, label === 'A' ? 'B' : 'A');
  return (
    <div className={styles.sideCard} aria-label={`Run ${label}`} role="group">
      <div className={styles.sideCardHead}>
        <span className={styles.sideBadge}>{label}</span>
        <Link href={`/runs/${encodeURIComponent(side.runId)}`} className={styles.mono}>
          {side.runId}
        </Link>
        <span className="status" data-status={side.status}>
          {side.status}
        </span>
        {side.kind !== 'run' ? <span className={styles.kindTag}>{side.kind}</span> : null}
      </div>
      <dl className={styles.sideFacts}>
        <div>
          <dt>Skill</dt>
          <dd className={styles.mono}>
            <NameParts name={side.skill} />
          </dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd className={styles.mono}>{side.version ? side.version.slice(0, 8) : '—'}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd className={styles.mono} title={side.model}>
            {modelLabel(side.model)}
          </dd>
        </div>
        <div>
          <dt>Steps</dt>
          <dd>
            {side.steps}
            {inside ? <span className={styles.delta2}>{inside}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>
            {/* no turn reported: no figure to give (a 0 would read as none used) */}
            {noneReported(side.tokensNotReported) ? (
              'not reported'
            ) : (
              <>
                {tokens.toLocaleString('en-US')}
                <span className={styles.delta2}>
                  {side.tokens.input.toLocaleString('en-US')} in · {side.tokens.output.toLocaleString('en-US')} out
                </span>
              </>
            )}
            {/* the figures are of the turns that reported: said so, and no difference made of two partial sums */}
            {side.tokensNotReported ? <span className={styles.delta2}>{notReportedText(side.tokensNotReported.turns, side.tokensNotReported.of)}</span> : null}
            {other ? <span className={styles.delta2}>vs A: {side.tokensNotReported || other.tokensNotReported ? 'unknown (tokens not reported)' : signed(tokens - (other.tokens.input + other.tokens.output), 'tokens')}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Took</dt>
          <dd>
            {formatDuration(side.durationMs)}
            {other ? (
              <span className={styles.delta2}>
                vs A: {side.durationMs === other.durationMs ? 'same time' : `${side.durationMs > other.durationMs ? '+' : '−'}${formatDuration(Math.abs(side.durationMs - other.durationMs))}`}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
    </div>
  );
}

function StepCell({ step }: { step: CompareRowView['a'] }) {
  if (!step) return <td className={styles.missing}>—</td>;
  return (
    <td>
      <span className="status" data-status={step.status}>
        {step.status}
      </span>{' '}
      <span className={styles.dim}>{formatDuration(step.durationMs)}</span>
      {step.tokens ? <span className={styles.dim}> · {step.tokens.input + step.tokens.output} tok</span> : null}
      {step.tokensNotReported ? <span className={styles.dim}> · tokens not reported</span> : null}
      {step.recorded ? <span className={styles.recordedTag} title="answered from another run's recording, not executed">recorded</span> : null}
    </td>
  );
}

/** the value a fork edited at its point, A's beside B's: no step row holds it (the rows are steps' outputs) */
function ForkEditRow({ edit }: { edit: NonNullable<CompareView['forkEdit']> }) {
  const cell = (value: unknown) => (
    <td>
      <code className={styles.mono} title={fullValue(value)}>
        {shortValue(value)}
      </code>
    </td>
  );
  return (
    <tr data-change="output" aria-label={`${edit.position}: ${forkEditWords(edit)}`}>
      <th scope="row">
        <code>{edit.position}</code>
      </th>
      <td className={styles.dim}>input</td>
      {cell(edit.a)}
      {cell(edit.b)}
      <td>
        <span className={styles.changeTag} data-change="output" title={forkEditWords(edit)}>
          edited at the fork ({edit.side})
        </span>
      </td>
    </tr>
  );
}

type Props = {
  view: CompareView;
  /** A was chosen for B: the last completed run of its skill before it */
  isBaseline?: boolean;
  /** how A and B are related, when one is a replay or fork of the other */
  lineage?: string | null;
};

export function Comparison({ view, isBaseline = false, lineage = null }: Props) {
  const [showAll, setShowAll] = useState(false);
  // its toggles are disabled until hydrated: on the server's HTML a click reached no handler (the box
  // showed ticked, no step unfolded) (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const shown = useMemo(() => visibleRows(view.rows, showAll), [view.rows, showAll]);
  const folds = useMemo(() => visibleRows(view.rows, false).some((s) => s.kind === 'fold'), [view.rows]);
  const divergenceIndex = useMemo(() => new Map(view.divergences.map((d, i) => [`${d.position}`, i])), [view.divergences]);
  const first = view.firstDivergence;
  const changed = view.rows.filter((r) => r.change !== 'same').length;
  const otherSkills = otherSkillsNote(view);
  // the fork's edited input goes before the rows at its point (at the top when those are folded away)
  const editAt = view.forkEdit ? forkEditIndex(view.rows, view.forkEdit.position) : -1;
  const editShown = shown.some((s) => s.kind === 'row' && s.index === editAt);
  return (
    <section aria-label="Comparison" className={styles.comparison}>
      <div className={styles.firstDivergence} data-identical={view.identical}>
        {first ? (
          <p>
            <strong>First divergence</strong> at <code>{first.position}</code> — {changeWords(first.change, LABELS)}
            {divergenceNote(first) ? `: ${divergenceNote(first)}` : ''}.{' '}
            <a href="#divergence-1">See it</a>
          </p>
        ) : (
          <p>
            <strong>identical</strong> — the two runs took the same steps, with the same statuses and outputs, to the same outcome.
          </p>
        )}
        {otherSkills ? <p className={styles.dim}>{otherSkills}</p> : null}
        {isBaseline ? <p className={styles.dim}>A is the last completed run of the skill before B.</p> : null}
        {lineage ? <p className={styles.dim}>{lineage}</p> : null}
        {view.stoppedAt ? (
          <p className={styles.dim}>
            B stopped at <code>{view.stoppedAt.position}</code>: {view.stoppedAt.message}
          </p>
        ) : null}
      </div>
      <div className={styles.sideCards}>
        <SideCard side={view.a} label="A" />
        <SideCard side={view.b} label="B" other={view.a} />
      </div>
      <div className={styles.rowsHead}>
        <h2>Steps, aligned by position</h2>
        <span className={styles.dim}>
          {view.rows.length} positions, {changed} different
        </span>
        {folds ? (
          <label className={styles.toggle}>
            <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} disabled={!hydrated} /> Show unchanged steps
          </label>
        ) : null}
      </div>
      <table className={styles.rows} aria-label="Steps of A and B, aligned by position">
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Kind</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          {view.forkEdit && !editShown ? <ForkEditRow edit={view.forkEdit} /> : null}
          {shown.flatMap((s) => [
            ...(view.forkEdit && s.kind === 'row' && s.index === editAt ? [<ForkEditRow key="fork-edit" edit={view.forkEdit} />] : []),
            s.kind === 'fold' ? (
              <tr key={`fold-${s.from}`} className={styles.foldRow}>
                <td colSpan={5}>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowAll(true)} disabled={!hydrated}>
                    {plural(s.count, 'unchanged step')}
                  </button>
                </td>
              </tr>
            ) : (
                <tr key={`${s.row.position}:${s.index}`} data-change={s.row.change}>
                  <th scope="row">
                    <code>{s.row.position}</code>
                  </th>
                  <td className={styles.dim}>{s.row.kind}</td>
                  <StepCell step={s.row.a} />
                  <StepCell step={s.row.b} />
                  <td>
                    {s.row.change === 'same' ? (
                      <span className={styles.dim}>same</span>
                    ) : divergenceIndex.has(s.row.position) ? (
                      <a href={`#divergence-${(divergenceIndex.get(s.row.position) ?? 0) + 1}`} className={styles.changeTag} data-change={s.row.change}>
                        {ROW_WORDS[s.row.change]}
                      </a>
                    ) : (
                      <span className={styles.changeTag} data-change={s.row.change}>
                        {ROW_WORDS[s.row.change]}
                      </span>
                    )}
                  </td>
                </tr>
            ),
          ])}
        </tbody>
      </table>
      {view.divergences.length ? (
        <>
          <h2 className={styles.sectionTitle}>Differences</h2>
          <DivergenceList divergences={view.divergences} labels={LABELS} label="Differences between A and B" />
        </>
      ) : null}
    </section>
  );
}
