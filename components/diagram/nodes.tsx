'use client';
// The diagram's cards: a phase (its contracts, tools, preprocessor and stages by
// rung), a postprocessor step (type, on_error, into), the caller contract, and
// the lane drawn behind the chain. Each card's accessible name is the model's
// label (set on the React Flow node); an item inside a card that can be
// refused or invalid (a stage, a preprocessor step) is a named group of its own.
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { ContractRef, DiagramNode, PhaseDiagramNode, StageItem, StepDiagramNode, StepItem, ContractDiagramNode, NodeProblem } from '@/lib/skill/diagram';
import type { CardNodes } from './card-nodes';
import { badgesBelow } from './layout';
import styles from './SkillDiagram.module.css';

/** `failed`: the card is where the last run failed; `failedItem`: the item inside it that did; `failedAt`: the run's failure point */
export type Selectable = { highlight: string | null; failed?: boolean; failedItem?: string | null; failedAt?: string | null };

/** the mark on a card or an item where the last run failed */
function FailedBadge({ at }: { at: string | null | undefined }) {
  return (
    <span className={styles.badge} data-badge="failed" title={at ? `The last run failed at ${at}` : 'The last run failed here'}>
      failed
    </span>
  );
}

/** where selecting a card or an item goes: its declaration in skill.md (the diagram provides it) */
export const SelectDeclaration = createContext<(at: { line: number; column: number }) => void>(() => undefined);
/** where each card reads its node (card-nodes.ts): a card redraws for its node without React Flow's nodes changing */
export const CardNodesSource = createContext<CardNodes | null>(null);

/** the node card `id` draws now: the diagram's (card-nodes.ts), else the one its React Flow node was made with */
function useCardNode<T extends DiagramNode>(id: string, made: T): T {
  const source = useContext(CardNodesSource);
  const subscribe = useCallback((onChange: () => void) => (source ? source.subscribe(id, onChange) : () => undefined), [source, id]);
  const get = () => (source?.node(id) as T | undefined) ?? made;
  return useSyncExternalStore(subscribe, get, get);
}

/**
 * `node`: the node as the card's React Flow node was made (the card draws the diagram's current one,
 * card-nodes.ts). `namesStages`: the skill's stages are the same in every phase, so one card (the first phase's)
 * names them for screen readers and tests; the others draw the same chips hidden from both.
 */
export type PhaseData = { node: PhaseDiagramNode; namesStages: boolean } & Selectable;
export type StepData = { node: StepDiagramNode } & Selectable;
export type ContractData = { node: ContractDiagramNode } & Selectable;
export type LaneData = { label: string; width: number; height: number };

function contractText(c: ContractRef): string {
  switch (c.kind) {
    case 'artifact':
      return `${c.name} (${c.summary})`;
    case 'inline':
      return c.summary;
    case 'any':
      return 'any object';
    default:
      return 'none declared';
  }
}

function Problems({ problems }: { problems: NodeProblem[] }) {
  if (!problems.length) return null;
  const errors = problems.filter((p) => p.severity === 'error');
  const first = errors[0] ?? problems[0];
  return (
    <div className={styles.problem} data-severity={first.severity} title={problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n')}>
      <span aria-hidden="true">{first.severity === 'error' ? '✕' : '!'}</span> {first.message}
      {problems.length > 1 ? ` (+${problems.length - 1})` : ''}
    </div>
  );
}

/**
 * An item inside a card (a stage, a preprocessor step, a nested step): a click selects the card
 * (its declaration — what clicking a node anywhere does), a double-click goes to the item's own.
 */
function useItemProps(item: StageItem | StepItem, d: Selectable) {
  const select = useContext(SelectDeclaration);
  return {
    'data-highlight': d.highlight === item.id ? 'true' : undefined,
    onDoubleClick: (e: React.MouseEvent) => {
      e.stopPropagation();
      select(item.span);
    },
  };
}

function StageChip({ s, d, named }: { s: StageItem; d: Selectable; named: boolean }) {
  const item = useItemProps(s, d);
  const isFailed = d.failedItem === s.id;
  return (
    <span {...(named ? { role: 'group', 'aria-label': isFailed ? `${s.label} failed` : s.label } : { 'aria-hidden': true })} className={styles.stage} data-refused={s.refused || undefined} data-invalid={s.invalid || undefined} data-failed={isFailed || undefined} {...item} title={`${s.uses}${s.effects.length ? ` · effects: ${s.effects.join(', ')}` : ''} — double-click for its declaration`}>
      {s.name || '(unnamed)'}
      {s.refused ? <em> refused: {s.missing.join(', ')} not granted</em> : null}
    </span>
  );
}

function PreStep({ s, d }: { s: StepItem; d: Selectable }) {
  const item = useItemProps(s, d);
  const isFailed = d.failedItem === s.id;
  return (
    <li role="group" aria-label={isFailed ? `${s.label} failed` : s.label} className={styles.preStep} data-invalid={s.invalid || undefined} data-failed={isFailed || undefined} {...item}>
      <span className={styles.stepIndex}>{s.index}</span> <b>{s.type || '?'}</b> <span className={styles.muted}>{s.detail}</span>
      {s.onError !== 'fail' ? <span className={styles.chip}>{s.onError}</span> : null}
      {isFailed ? <FailedBadge at={d.failedAt} /> : null}
    </li>
  );
}

export function PhaseCard({ id, data }: NodeProps & { data: PhaseData }) {
  const n = useCardNode(id, data.node);
  return (
    <div className={styles.card} data-kind="phase" data-failed={data.failed || undefined} data-invalid={n.invalid || undefined} data-unreachable={!n.isReachable || undefined} data-highlight={data.highlight === n.id || undefined}>
      <Handle type="target" position={Position.Top} className={styles.handle} />
      <div className={styles.cardHead} data-badges-below={badgesBelow(n, data.failed) || undefined}>
        <span className={styles.kind}>phase</span>
        <span className={styles.name}>{n.name}</span>
        {/* the badges go on the next line when the name would give way to them (layout.ts) */}
        <span className={styles.headBreak} aria-hidden="true" />
        {n.isEntry ? <span className={styles.badge} data-badge="entry">entry</span> : null}
        {n.isTerminal ? <span className={styles.badge}>terminal</span> : null}
        {!n.isReachable ? <span className={styles.badge} data-badge="warn">unreachable</span> : null}
        {data.failed ? <FailedBadge at={data.failedAt} /> : null}
      </div>
      <dl className={styles.rows}>
        <dt>in</dt>
        <dd>{contractText(n.input)}</dd>
        <dt>out</dt>
        <dd>{contractText(n.output)}</dd>
        {n.tools.length ? (
          <>
            <dt>tools</dt>
            <dd>{n.tools.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {n.preprocessor.length ? (
        <div className={styles.section}>
          <div className={styles.sectionHead}>preprocessor</div>
          <ol className={styles.preList}>
            {n.preprocessor.map((s) => (
              <PreStep key={s.id} s={s} d={data} />
            ))}
          </ol>
        </div>
      ) : null}
      {n.stages.map((g) => (
        <div key={g.rung} className={styles.rung}>
          <span className={styles.rungName}>{g.rung || '?'}</span>
          {g.items.map((s) => (
            <StageChip key={s.id} s={s} d={data} named={data.namesStages} />
          ))}
        </div>
      ))}
      <Problems problems={n.problems} />
      <Handle type="source" position={Position.Bottom} className={styles.handle} />
    </div>
  );
}

export function StepCard({ id, data }: NodeProps & { data: StepData }) {
  const n = useCardNode(id, data.node);
  return (
    <div className={styles.card} data-kind="step" data-failed={data.failed || undefined} data-invalid={n.invalid || undefined} data-highlight={data.highlight === n.id || undefined}>
      <Handle type="target" position={Position.Top} className={styles.handle} />
      <div className={styles.cardHead}>
        <span className={styles.kind}>step {n.index}</span>
        <span className={styles.name}>{n.type || '(no type)'}</span>
        {n.pure ? <span className={styles.badge}>pure</span> : null}
        {data.failed ? <FailedBadge at={data.failedAt} /> : null}
      </div>
      <div className={styles.detail}>{n.detail || ' '}</div>
      <div className={styles.stepMeta}>
        <span className={styles.chip} data-on-error={n.onError}>
          on_error: {n.onError}
        </span>
        {n.into ? <span className={styles.chip}>into: {n.into}</span> : <span className={styles.chip}>merge</span>}
      </div>
      {n.steps?.length ? (
        <ol className={`${styles.preList} ${styles.nested}`} aria-label={`steps of step ${n.index}`}>
          {n.steps.map((s) => (
            <PreStep key={s.id} s={s} d={data} />
          ))}
        </ol>
      ) : null}
      <Problems problems={n.problems} />
      <Handle type="source" position={Position.Bottom} className={styles.handle} />
    </div>
  );
}

export function ContractCard({ id, data }: NodeProps & { data: ContractData }) {
  const n = useCardNode(id, data.node);
  return (
    <div className={styles.card} data-kind="contract" data-invalid={n.invalid || undefined} data-highlight={data.highlight === n.id || undefined}>
      <Handle type="target" position={Position.Top} className={styles.handle} />
      <div className={styles.cardHead}>
        <span className={styles.name}>caller contract</span>
      </div>
      <div className={styles.detail}>{contractText(n.contract)}</div>
      <Problems problems={n.problems} />
    </div>
  );
}

export function LaneBox({ data }: NodeProps & { data: LaneData }) {
  return (
    <div className={styles.lane} style={{ width: data.width, height: data.height }} aria-hidden="true">
      <span className={styles.laneLabel}>{data.label}</span>
    </div>
  );
}

export const nodeTypes = { phase: PhaseCard, step: StepCard, contract: ContractCard, lane: LaneBox };
