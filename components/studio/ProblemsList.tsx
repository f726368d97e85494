'use client';
// The Problems list beside the editor: every finding, each read as
// `<line>:<col> <message>`; picking one moves the cursor to it. Items are
// list items that take focus and Enter, not buttons: a problem's text must not
// read as one of the page's commands (Save, Run). That they act is said to a
// screen reader by their description (and their Enter shortcut) instead.
import { memo } from 'react';
import type { DiagnosticView } from '@/lib/views';
import styles from './Studio.module.css';
import { plural } from '@/lib/kernel/plural';

function ProblemsListView({ diagnostics, onPick }: { diagnostics: DiagnosticView[]; onPick(d: DiagnosticView): void }) {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return (
    <div className={styles.problems}>
      <div className={styles.problemsHead} id="problems-heading">
        Problems{' '}
        <span className={styles.counts}>
          {errors ? <span data-severity="error">{plural(errors, 'error')}</span> : null}
          {warnings ? <span data-severity="warning">{plural(warnings, 'warning')}</span> : null}
          {!diagnostics.length ? <span data-severity="none">none: skill.md is valid</span> : null}
        </span>
      </div>
      <span id="problems-hint" className="visually-hidden">
        Enter or click: move the cursor to it in the editor
      </span>
      <ul aria-label="Problems" className={styles.problemList}>
        {diagnostics.map((d, i) => (
          <li
            key={`${d.file}:${d.line}:${d.column}:${d.rule}:${i}`}
            tabIndex={0}
            aria-describedby="problems-hint"
            aria-keyshortcuts="Enter"
            data-severity={d.severity}
            data-rule={d.rule}
            onClick={() => onPick(d)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onPick(d);
              }
            }}
          >
            {d.line}:{d.column} {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Redrawn only when its props change (the studio renders again at every keystroke). */
export const ProblemsList = memo(ProblemsListView);
