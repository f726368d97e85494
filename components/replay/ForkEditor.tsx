'use client';
// The body of the `Fork from here` dialog once the value at the point is read: the value in an
// editor, checked as it is typed (JSON; an object where one is needed; its schema where it has
// one), every error located at line:column; an optional model for the rest; and `Start fork`,
// which makes the fork (the server checks the value again, and refuses before anything runs) and
// moves the page to it.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import type { JsonSchema } from '@/lib/kernel/json';
import type { ForkBody, ForkPointView } from '@/lib/views';
import { checkJsonText } from '@/components/studio/input-errors';
import { JsonValue } from './DeltaView';
import { pointFacts, startText } from './fork-words';
import styles from './Replay.module.css';

/** the models a fork is most often given instead of its parent's (any spec `run --model` takes will do) */
const MODEL_SUGGESTIONS = ['scripted:model.yaml', 'openai'];

type Props = {
  point: ForkPointView;
  /** Cancel's place: the dialog's own close button */
  cancel: ReactNode;
};

export function ForkEditor({ point, cancel }: Props) {
  const router = useRouter();
  const facts = pointFacts(point.at, point.kind);
  const [text, setText] = useState(() => startText(point));
  const [model, setModel] = useState('');
  const schema = point.schema as JsonSchema | null;
  const check = useMemo(
    () => (point.editable ? checkJsonText(text, { what: facts.what, object: facts.isObject, schema, schemaNote: 'its schema' }) : { value: undefined, problems: [] }),
    [point.editable, text, facts.what, facts.isObject, schema],
  );
  const start = useMutation({
    mutationFn: (body: ForkBody) => callRoute(routes.forkRun, { params: { id: point.runId }, body }),
    // stays pending: the dialog goes away with the page
    onSuccess: (fork) => router.push(`/runs/${encodeURIComponent(fork.runId)}`),
  });
  const isBusy = start.isPending || start.isSuccess;
  const canStart = !isBusy && check.problems.length === 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!canStart) return;
    const body: ForkBody = { at: point.at, version: point.version };
    if (point.editable) body.value = check.value;
    if (model.trim()) body.model = model.trim();
    start.mutate(body);
  };

  return (
    <form onSubmit={submit} className={styles.forkForm}>
      <p className={styles.forkWhat}>
        {point.editable ? (
          <>
            Edit <strong>{facts.what}</strong>. {facts.effect}
          </>
        ) : (
          <>
            Nothing to edit at <code>{point.at}</code>: the fork runs this step again, live, with version <code>{point.version.slice(0, 8)}</code>.
          </>
        )}
      </p>
      {point.editable ? (
        <div className="field">
          <label htmlFor="fork-value">
            Value at <code>{point.at}</code>
            <span className={styles.labelNote}>{schema ? ' — JSON, checked against its schema' : ' — JSON'}</span>
          </label>
          <textarea
            id="fork-value"
            className={`textarea ${styles.forkValue}`}
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={check.problems.length > 0}
            aria-describedby="fork-value-problems"
            rows={Math.min(18, Math.max(6, text.split('\n').length + 1))}
          />
          <ul id="fork-value-problems" className={styles.problems} aria-label="Errors in the value">
            {check.problems.map((x, i) => (
              <li key={i}>
                {x.line}:{x.column} {x.message}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <JsonValue value={point.value} />
      )}
      <div className="field">
        <label htmlFor="fork-model">
          Model <span className={styles.labelNote}>— optional; the run&apos;s own when left empty</span>
        </label>
        <input
          id="fork-model"
          className={`input ${styles.mono}`}
          value={model}
          onChange={(e) => setModel(e.target.value)}
          placeholder="the run's model"
          list="fork-model-suggestions"
          autoComplete="off"
          spellCheck={false}
        />
        <datalist id="fork-model-suggestions">
          {MODEL_SUGGESTIONS.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </div>
      {start.error ? (
        <p className={`form-error ${styles.dialogError}`} role="alert">
          Not started: {start.error.message}
        </p>
      ) : null}
      <div className="actions">
        {cancel}
        <button type="submit" className="btn btn-primary" disabled={!canStart} aria-busy={isBusy || undefined}>
          Start fork
        </button>
      </div>
    </form>
  );
}
