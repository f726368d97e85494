// The body of the Details panel for one recorded item, by kind: a stage (its context, contribution,
// keys not applied, effects, what a user capability printed), a model turn (messages sent, response, usage), a tool call (args,
// outcome), a processor step (input, output, what a code step printed, definition), or any other event (its data).
import type { ReactNode } from 'react';
import type { RunItemView, ValueSlotView } from '@/lib/views';
import { readableText } from '@/lib/kernel/terminal-text';
import { ErrorBlock } from './ErrorBlock';
import { MessageList } from './MessageList';
import { ValueView } from './ValueView';
import type { TimelineEntry } from './timeline-index';
import styles from './Inspector.module.css';
import valueStyles from './ValueView.module.css';

type Props = { runId: string; item: RunItemView; skill: string; version: string | null; entry: TimelineEntry };

function Part({ title, children, isOpen = true }: { title: string; children: ReactNode; isOpen?: boolean }) {
  return (
    <details className={styles.part} open={isOpen}>
      <summary>{title}</summary>
      <div className={styles.partBody}>{children}</div>
    </details>
  );
}

const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : 'none');

/** a result that is the error alone: shown by the error block above, so not again (each error shows once) */
/** a model turn's text slot holding something (a turn that only called tools or finished has '' or none) */
const hasText = (slot: ValueSlotView) => !('value' in slot) || (slot.value !== '' && slot.value !== null);

export function isErrorOnly(slot: ValueSlotView): boolean {
  if (!('value' in slot)) return false;
  const v = slot.value;
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && 'error' in v;
}

/**
 * one stream a code step printed, in a box as its output is (the step's own text: React escapes it),
 * readable: a tool's colour codes dropped, any other control shown as `\x1b`… (the record keeps the bytes)
 */
function PrintedBox({ name, text }: { name: 'stdout' | 'stderr'; text: string | null }) {
  if (text === null) return null;
  return (
    <>
      <h4>{name}</h4>
      <pre className={valueStyles.value} aria-label={name} tabIndex={0}>
        {readableText(text)}
      </pre>
    </>
  );
}

/** what a code step or a user capability printed, a box per stream; nothing for one that printed nothing */
function PrintedPart({ stdout, stderr }: { stdout: string | null; stderr: string | null }) {
  if (stdout === null && stderr === null) return null;
  return (
    <Part title="Printed output">
      <PrintedBox name="stdout" text={stdout} />
      <PrintedBox name="stderr" text={stderr} />
    </Part>
  );
}

export function ItemBody({ runId, item, skill, version }: Props) {
  const error = 'error' in item && item.error ? <ErrorBlock error={item.error} skill={skill} version={version} /> : null;
  switch (item.kind) {
    case 'stage': {
      const c = item.context;
      return (
        <>
          {error}
          <dl className={styles.facts}>
            <div>
              <dt>Effects asked</dt>
              <dd>{list(item.effects.asked)}</dd>
            </div>
            <div>
              <dt>Granted</dt>
              <dd>{list(item.effects.granted)}</dd>
            </div>
            <div>
              <dt>Missing</dt>
              <dd className={item.effects.missing.length ? styles.missing : undefined}>{list(item.effects.missing)}</dd>
            </div>
          </dl>
          <Part title="Contribution">
            {isErrorOnly(item.contribution) ? <p className={styles.dim}>None: it raised the error above.</p> : <ValueView runId={runId} slot={item.contribution} label="Contribution" />}
            {item.notApplied.length ? (
              <ul className={styles.notApplied} aria-label="Keys not applied">
                {item.notApplied.map((n) => (
                  <li key={n.key}>
                    <code>{n.key}</code> not applied: {n.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </Part>
          <PrintedPart stdout={item.stdout} stderr={item.stderr} />
          <Part title={`Context it was handed (${c.rung}, round ${c.round})${item.rebuilt.verified ? '' : ' — rebuilt, not verified'}`}>
            <h4>with</h4>
            <ValueView runId={runId} slot={c.with} label="with" />
            {c.turn ? (
              <>
                <h4>The turn</h4>
                <ValueView runId={runId} slot={c.turn.text} label="Turn text" />
              </>
            ) : null}
            {c.requests ? (
              <>
                <h4>Tool requests</h4>
                <ol className={styles.calls} aria-label="Tool requests">
                  {c.requests.map((r) => (
                    <li key={r.id}>
                      <code>{r.op}</code> <ValueView runId={runId} slot={r.args} label={`args of ${r.op}`} />
                    </li>
                  ))}
                </ol>
              </>
            ) : null}
            {c.outcomes ? (
              <>
                <h4>Tool outcomes</h4>
                <ol className={styles.calls} aria-label="Tool outcomes">
                  {c.outcomes.map((o) => (
                    <li key={o.callId}>
                      <code>{o.op}</code> <span className="status" data-status={o.status}>{o.status}</span> <ValueView runId={runId} slot={o.content} label={`outcome of ${o.op}`} />
                    </li>
                  ))}
                </ol>
              </>
            ) : null}
            {c.artifact ? (
              <>
                <h4>Artifact</h4>
                <ValueView runId={runId} slot={c.artifact} label="Artifact" />
              </>
            ) : null}
            {c.messages ? (
              <>
                <h4>Request messages</h4>
                <MessageList runId={runId} messages={c.messages} label="Request messages" />
              </>
            ) : null}
            {c.transcript ? (
              <>
                <h4>Transcript</h4>
                <MessageList runId={runId} messages={c.transcript} label="Transcript" />
              </>
            ) : null}
          </Part>
          <Part title="Definition" isOpen={false}>
            <ValueView runId={runId} slot={item.definition} label="Definition" />
          </Part>
        </>
      );
    }
    case 'model':
      return (
        <>
          <dl className={styles.facts}>
            <div>
              <dt>Tokens</dt>
              <dd>{item.response.usage ? `${item.response.usage.inputTokens} in, ${item.response.usage.outputTokens} out` : item.tokensNotReported ? 'not reported by the model endpoint' : 'no model tokens used'}</dd>
            </div>
            {item.cost !== null ? (
              <div>
                <dt>Cost</dt>
                <dd>{item.cost.toFixed(6)}</dd>
              </div>
            ) : null}
          </dl>
          <Part title="Response">
            {/* a turn that only called tools or finished said no text: no empty (and focusable) box for it */}
            {hasText(item.response.text) ? <ValueView runId={runId} slot={item.response.text} label="Response text" /> : null}
            {!hasText(item.response.text) && !item.response.toolCalls.length && !item.response.finish ? <p className={styles.dim}>No text, no tool call and no finish.</p> : null}
            {item.response.toolCalls.length ? (
              <ol className={styles.calls} aria-label="Tool calls asked">
                {item.response.toolCalls.map((c) => (
                  <li key={c.id}>
                    <code>{c.op}</code> <ValueView runId={runId} slot={c.args} label={`args of ${c.op}`} />
                  </li>
                ))}
              </ol>
            ) : null}
            {item.response.finish ? (
              <>
                <h4>Finish</h4>
                <ValueView runId={runId} slot={item.response.finish} label="Finish" />
              </>
            ) : null}
          </Part>
          <Part title={`Messages sent (${item.request.messages.length})${item.rebuilt.verified ? '' : ' — rebuilt, not verified'}`} isOpen={false}>
            <MessageList runId={runId} messages={item.request.messages} label="Messages sent" />
            <h4>Tools offered</h4>
            <ValueView runId={runId} slot={item.request.tools} label="Tools offered" />
            <h4>Response format</h4>
            <ValueView runId={runId} slot={item.request.responseFormat} label="Response format" />
          </Part>
        </>
      );
    case 'tool':
      return (
        <>
          {error}
          <Part title={`Arguments of ${item.op}`}>
            <ValueView runId={runId} slot={item.args} label="Arguments" />
          </Part>
          <Part title="Output">
            {isErrorOnly(item.output) ? <p className={styles.dim}>None: it raised the error above.</p> : <ValueView runId={runId} slot={item.output} label="Output" />}
          </Part>
          {item.outcome ? (
            <Part title="What the model read">
              <ValueView runId={runId} slot={item.outcome} label="Outcome" />
            </Part>
          ) : null}
        </>
      );
    case 'processor':
      return (
        <>
          {error}
          <Part title="Input">
            <ValueView runId={runId} slot={item.input} label="Input" />
          </Part>
          <Part title="Output">
            {isErrorOnly(item.output) ? <p className={styles.dim}>None: it raised the error above.</p> : <ValueView runId={runId} slot={item.output} label="Output" />}
          </Part>
          <PrintedPart stdout={item.stdout} stderr={item.stderr} />
          <Part title="Definition" isOpen={false}>
            <ValueView runId={runId} slot={item.definition} label="Definition" />
          </Part>
        </>
      );
    case 'event':
      return (
        <>
          <p>
            <code>{item.type}</code> {item.summary}
          </p>
          <ValueView runId={runId} slot={item.data} label="Event data" />
        </>
      );
  }
}
