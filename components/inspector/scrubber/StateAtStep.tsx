'use client';
/**
 * The region `State at step`: what the run's state was after the event the
 * scrubber is on — where it was (phase, visit, round), the transcript, the
 * workspace, a processor chain's current value, the counts, the output or
 * error — and what that event changed. All of it is the server's fold; this
 * only draws it.
 */
import type { RunStateView } from '@/lib/views/inspector';
import { emptyWords } from './empty-words';
import { chainWords, editedInputWords, visitWords } from './where-words';
import { fullValue, shortValue, stateChanges } from './state-diff';
import { ValueView } from '../ValueView';
import styles from './Scrubber.module.css';

/** an event's time, as the clock read it (UTC, to the millisecond) */
export const eventTime = (at: number | null) => (at === null ? '' : `${new Date(at).toISOString().slice(11, 23)} UTC`);

type Props = { state: RunStateView | undefined; before: RunStateView | undefined; isLoading: boolean; error: string | null; declaresStages?: boolean };

export function StateAtStep({ state, before, isLoading, error, declaresStages = true }: Props) {
  return (
    <section className={styles.state} aria-label="State at step" aria-busy={isLoading} data-seq={state?.seq}>
      {error ? (
        <p role="alert" className={styles.error}>
          The state could not be read: {error}
        </p>
      ) : null}
      {state ? <StateBody state={state} before={before} declaresStages={declaresStages} /> : <p className={styles.dim}>Loading the state…</p>}
    </section>
  );
}

function StateBody({ state, before, declaresStages }: { state: RunStateView; before: RunStateView | undefined; declaresStages: boolean }) {
  const runId = state.runId;
  const empty = emptyWords(state);
  return (
    <>
      <header className={styles.stateHead}>
        <h3>{state.seq === 0 ? `Before the first event (0 of ${state.lastSeq})` : `Event ${state.seq} of ${state.lastSeq}`}</h3>
        {state.type ? <code className={styles.type}>{state.type}</code> : null}
        {state.at !== null ? <span className={styles.dim}>{eventTime(state.at)}</span> : null}
      </header>
      {/* the line whole (it wraps): the short one cuts the error or reason it quotes */}
      <p className={styles.summary}>{state.change.whole ?? state.change.summary}</p>

      <dl className={styles.where} aria-label="Where the run was">
        <Fact name="Status" value={state.status} />
        <Fact name="Phase" value={state.phase ?? '—'} />
        <Fact name="Visit" value={visitWords(state)} />
        <Fact name="Round" value={state.round === null ? '—' : String(state.round)} />
        <Fact name="Model turns" value={String(state.counts.model)} />
        <Fact name="Tool calls" value={countWords(state.counts.tool)} />
        {/* a skill without capability stages (most): no "Stages 0" at every step */}
        {declaresStages || Object.values(state.counts.stage).some((n) => n > 0) ? <Fact name="Stages" value={countWords(state.counts.stage)} /> : null}
        <Fact name="Steps" value={countWords(state.counts.processor)} />
      </dl>

      <Changes state={state} before={before} />

      <div className={styles.stateGrid}>
        <div>
          <h4>Transcript</h4>
          {state.transcript.length === 0 ? (
            <p className={styles.dim}>{empty.transcript}</p>
          ) : (
            <ol className={styles.transcript} aria-label="Transcript">
              {state.transcript.map((m) => (
                <li key={m.id} className={styles.message} data-role={m.role} aria-label={`${m.role} message ${m.id}`}>
                  <div className={styles.messageHead}>
                    <span className={styles.role}>{m.role}</span>
                    {m.op ? <code>{m.op}</code> : null}
                    {m.toolCallId ? <span className={styles.dim}>{m.toolCallId}</span> : null}
                    {m.editedBy ? <span className={styles.edited}>edited by {m.editedBy}</span> : null}
                    {m.editedAt !== undefined ? <span className={styles.edited}>{editedInputWords(m.editedAt, m.editedOver ?? null)}</span> : null}
                  </div>
                  <ValueView runId={runId} slot={m.content} label={`content of ${m.id}`} />
                  {m.toolCalls?.length ? (
                    <ul className={styles.toolCalls} aria-label={`Tool calls of ${m.id}`}>
                      {m.toolCalls.map((c) => (
                        <li key={c.id}>
                          <code>{c.op}</code> <span className={styles.dim}>{c.id}</span>
                          <ValueView runId={runId} slot={c.args} label={`arguments of ${c.id}`} />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
        </div>
        <div>
          <h4>Workspace</h4>
          {state.workspace.length === 0 && state.files.length === 0 ? (
            <p className={styles.dim}>{empty.workspace}</p>
          ) : (
            <ul className={styles.workspace} aria-label="Workspace">
              {state.workspace.map((w) => (
                <li key={w.path}>
                  <code>{w.path}</code> <span className={styles.dim}>event {w.seq}</span>
                  <ValueView runId={runId} slot={w.content} label={w.path} />
                </li>
              ))}
              {state.files.map((f) => (
                <li key={`file:${f.path}`}>
                  <code>{f.path}</code>{' '}
                  <span className={styles.dim}>
                    {f.bytes.toLocaleString('en')} bytes · event {f.seq}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {state.chain ? (
            <>
              <h4>
                Processor chain <code>{state.chain.prefix}</code>
              </h4>
              <p className={styles.dim}>{chainWords(state.chain)}</p>
              <ValueView runId={runId} slot={state.chain.value} label={`value of the chain ${state.chain.prefix}`} />
              {state.chain.element ? (
                <>
                  <p className={styles.dim}>
                    element {state.chain.element.prefix}, after {state.chain.element.step}
                  </p>
                  <ValueView runId={runId} slot={state.chain.element.value} label={`value of ${state.chain.element.prefix}`} />
                </>
              ) : null}
            </>
          ) : null}
          {state.output ? (
            <>
              <h4>Output</h4>
              <ValueView runId={runId} slot={state.output} label="the run's output" />
            </>
          ) : null}
          {state.error ? (
            <>
              <h4>Error</h4>
              <p className={styles.error}>
                {state.error.code ? <code>{state.error.code}</code> : null} {state.error.message}
              </p>
            </>
          ) : null}
        </div>
      </div>
    </>
  );
}

function Fact({ name, value }: { name: string; value: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function countWords(c: RunStateView['counts']['stage'] | RunStateView['counts']['tool']): string {
  const parts = Object.entries(c)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  return parts.length ? parts.join(', ') : '0';
}

function Changes({ state, before }: { state: RunStateView; before: RunStateView | undefined }) {
  if (state.seq === 0) return null;
  // the diff needs the state before; until it has loaded, the paths the fold says this event touched
  const changes = before ? stateChanges(before, state) : null;
  return (
    <div className={styles.changes}>
      <h4>What this event changed</h4>
      {changes === null ? (
        <p className={styles.dim}>{state.change.paths.length ? state.change.paths.join(', ') : 'nothing in the state'}</p>
      ) : changes.length === 0 ? (
        <p className={styles.dim}>Nothing in the state (it was recorded for the log).</p>
      ) : (
        <ul className={styles.diff} aria-label="Changes at step">
          {changes.map((c, i) => (
            <li key={`${c.path}:${i}`} data-op={c.op}>
              <span className={styles.op}>{c.op === 'add' ? '+' : c.op === 'remove' ? '−' : '~'}</span>
              <code className={styles.path}>{c.path}</code>
              {/* a value cut short says itself whole in its title */}
              {c.op === 'replace' ? (
                <>
                  <del title={fullValue(c.before)}>{shortValue(c.before)}</del> → <ins title={fullValue(c.after)}>{shortValue(c.after)}</ins>
                </>
              ) : c.op === 'add' ? (
                <ins title={fullValue(c.after)}>{shortValue(c.after)}</ins>
              ) : (
                <del title={fullValue(c.before)}>{shortValue(c.before)}</del>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
