// Messages as the views carry them (a request's, a stage's transcript): role, content, tool calls.
import type { MessageView } from '@/lib/views';
import { ValueView } from './ValueView';
import styles from './Inspector.module.css';

export function MessageList({ runId, messages, label }: { runId: string; messages: MessageView[]; label: string }) {
  if (messages.length === 0) return <p className={styles.dim}>No messages.</p>;
  return (
    <ol className={styles.messages} aria-label={label}>
      {messages.map((m, i) => (
        <li key={`${m.id}-${i}`} aria-label={`${m.role} message ${i + 1}`} data-role={m.role}>
          <div className={styles.messageHead}>
            <span className={styles.role}>{m.role}</span>
            {m.op ? <code className={styles.dim}>{m.op}</code> : null}
            {m.editedBy ? <span className={styles.dim}>edited by {m.editedBy}</span> : null}
          </div>
          <ValueView runId={runId} slot={m.content} label={`${m.role} message ${i + 1}`} />
          {m.toolCalls?.length ? (
            <ul className={styles.calls}>
              {m.toolCalls.map((c) => (
                <li key={c.id}>
                  <code>{c.op}</code> <ValueView runId={runId} slot={c.args} label={`args of ${c.op}`} />
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
