'use client';
// What a run starts from: the input (JSON, checked against the entry phase's
// input contract as it is typed, every error located) and the model. The
// page's Run button starts it. Past inputs of this skill are offered again.
import { useMemo, memo } from 'react';
import { useStored } from '@/components/common/use-stored';
import { useHydrated } from '@/components/common/use-hydrated';
import type { InputProblem } from './input-errors';
import { inputsKey, parseInputs } from './drafts';
import { modelShown, type ModelChoice } from './studio-logic';
import styles from './Studio.module.css';

type Props = {
  inputText: string;
  onInputText(t: string): void;
  problems: InputProblem[];
  /** the entry phase whose input_schema the input is checked against (null: nothing to check) */
  contractPhase: string | null;
  /** the skill whose past inputs are offered */
  history: string;
  choices: ModelChoice[];
  model: string;
  onModel(m: string): void;
  /** the model script picked against the skill's phases: why a run with it would fail at once (use-script-note.ts) */
  scriptNote?: string | null;
};

function RunPanelView(p: Props) {
  const stored = useStored(inputsKey(p.history));
  const past = useMemo(() => parseInputs(stored), [stored]);
  // with no usable model the select would show a blank box: it says so, and the note says what to add
  const shown = modelShown(p.choices, p.model);
  // the input and the model are disabled until hydrated: typed into the server's HTML, the input was
  // put back to its first value once the page hydrated, and the run took that (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  return (
    <div className={styles.runPanel}>
      <div className={styles.runHead}>
        <label htmlFor="run-input" className={styles.runLabel}>
          Input
        </label>
        <span className={styles.muted}>
          {p.contractPhase ? <>JSON, checked against the input_schema of phase {p.contractPhase}</> : <>JSON object: the run&apos;s input</>}
        </span>
        {past.length ? (
          <select
            aria-label="History"
            className={`select ${styles.history}`}
            value=""
            onChange={(e) => {
              if (e.target.value !== '') p.onInputText(past[Number(e.target.value)]);
            }}
          >
            <option value="">Earlier values…</option>
            {past.map((t, i) => (
              <option key={i} value={i}>
                {t.replace(/\s+/g, ' ').slice(0, 80)}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      <textarea
        id="run-input"
        className={`textarea ${styles.input}`}
        spellCheck={false}
        value={p.inputText}
        disabled={!hydrated}
        onChange={(e) => p.onInputText(e.target.value)}
        aria-invalid={p.problems.length > 0}
        aria-describedby="run-input-problems"
        rows={5}
      />
      <ul id="run-input-problems" className={styles.inputProblems} aria-label="Errors in the JSON">
        {p.problems.map((x, i) => (
          <li key={i}>
            {x.line}:{x.column} {x.message}
          </li>
        ))}
      </ul>
      <div className={styles.modelRow}>
        <label htmlFor="run-model" className={styles.runLabel}>
          Model
        </label>
        <select id="run-model" className="select" value={p.model} onChange={(e) => p.onModel(e.target.value)} disabled={!hydrated}>
          {shown.placeholder ? (
            <option value="" disabled>
              {shown.placeholder}
            </option>
          ) : null}
          {p.choices.map((c) => (
            <option key={c.value} value={c.value} disabled={c.disabled}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      {shown.note ? <p className={styles.modelNote}>{shown.note}</p> : null}
      {p.scriptNote ? (
        <p className={`${styles.modelNote} ${styles.scriptNote}`} data-testid="script-note">
          {p.scriptNote}
        </p>
      ) : null}
    </div>
  );
}

/** Redrawn only when its props change (the studio renders again at every keystroke). */
export const RunPanel = memo(RunPanelView);
