'use client';
// The left half of the studio: the bundle's files as tabs (skill.md first), Monaco on the open one
// with the validator's markers, what the key under the cursor does, and the Problems list.
import * as Tabs from '@radix-ui/react-tabs';
import { useMemo, type ReactNode } from 'react';
import { languageOf, SKILL_MD } from '@/lib/skill/bundle';
import type { KeyInfo } from '@/lib/skill/key-info';
import type { DiagnosticView, Files } from '@/lib/views';
import type { EditorApi } from '@/components/editor/CodeEditor';
import { EditorPane } from './panes';
import { ProblemsList } from './ProblemsList';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Studio.module.css';

type Props = {
  /** the files as the page last rendered them (a model not made yet starts from its file's text here) */
  files: Files;
  /** the files whose text differs from the saved version's, now */
  changed: readonly string[];
  paths: string[];
  active: string;
  onActive(path: string): void;
  modelPath(path: string): string;
  onText(path: string, text: string): void;
  /** the editor lost the focus */
  onBlur(): void;
  diagnostics: DiagnosticView[];
  /** skill.md's first line of Markdown (where suggestions stay quiet) */
  bodyLine: number | undefined;
  keyInfo: KeyInfo | null;
  onCursor(line: number, column: number): void;
  onEditorReady(api: EditorApi): void;
  onSave(): void;
  onRun(): void;
  onNewFile(): void;
  onRemoveFile(path: string): void;
  onPickProblem(d: DiagnosticView): void;
  /** an older version: shown, not edited */
  readOnly?: boolean;
};

// The tabs and the file buttons are disabled until hydrated: a click on the server's HTML reaches no
// handler and is lost (components/common/use-hydrated.ts). Each reads it in a component of its own, so
// hydration renders them and not the editor's pane: rendered again then, the pane's editor came later
// than the diagram, and an edit made as the diagram showed found no skill.md model yet.
function FileTab({ path, isChanged }: { path: string; isChanged: boolean }) {
  const hydrated = useHydrated();
  return (
    <Tabs.Trigger value={path} className={styles.tab} disabled={!hydrated}>
      {path}
      {isChanged ? <span className={styles.tabDirty} aria-hidden="true" /> : null}
    </Tabs.Trigger>
  );
}

function FileButton({ onClick, isDanger = false, children }: { onClick(): void; isDanger?: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <button type="button" className={`btn btn-ghost btn-sm${isDanger ? ' btn-danger' : ''}`} onClick={onClick} disabled={!hydrated}>
      {children}
    </button>
  );
}

export function BundleEditor(p: Props) {
  const { active, diagnostics } = p;
  // the same array while the findings are the same: Monaco's markers are set again only when they change
  const markers = useMemo(() => diagnostics.filter((d) => d.file === active && (active === SKILL_MD || d.line > 0)), [diagnostics, active]);
  return (
    <div className={styles.left}>
      <Tabs.Root value={active} onValueChange={p.onActive} className={styles.tabsRoot}>
        <div className={styles.tabBar}>
          <Tabs.List aria-label="Files of the bundle" className={styles.tabList}>
            {p.paths.map((path) => (
              <FileTab key={path} path={path} isChanged={p.changed.includes(path)} />
            ))}
          </Tabs.List>
          {p.readOnly ? null : (
            <FileButton onClick={p.onNewFile}>+ New file</FileButton>
          )}
        </div>
        {/* the open file's own action, under the tabs: in the tab row it pushed the tabs onto another line */}
        {active !== SKILL_MD && !p.readOnly ? (
          <div className={styles.fileBar}>
            <FileButton onClick={() => p.onRemoveFile(active)} isDanger>
              Remove this file
            </FileButton>
          </div>
        ) : null}
        <Tabs.Content value={active} forceMount className={styles.tabContent}>
          <section aria-label={`${active} editor`} className={`${styles.editor} nokey`}>
            <EditorPane
              path={p.modelPath(active)}
              language={active === SKILL_MD ? 'yaml' : languageOf(active)}
              value={p.files[active] ?? ''}
              onChange={(t) => p.onText(active, t)}
              onBlur={p.onBlur}
              markers={markers}
              onCursor={p.onCursor}
              onReady={p.onEditorReady}
              onSave={p.onSave}
              onRun={p.onRun}
              bodyLine={active === SKILL_MD ? p.bodyLine : undefined}
              readOnly={p.readOnly}
            />
            <p className={styles.tabHint}>
              <kbd>Esc</kbd> then <kbd>Tab</kbd> leaves the editor
            </p>
          </section>
        </Tabs.Content>
      </Tabs.Root>
      <div className={styles.keyInfo} role="note" aria-label="The key under the cursor">
        {p.keyInfo ? (
          <>
            {/* two whole lines at most (the whole on hover); the link beside them, always in view */}
            <span className={styles.keyText} title={`${p.keyInfo.path} — ${p.keyInfo.description}`}>
              <code>{p.keyInfo.path}</code> — {p.keyInfo.description}
            </span>{' '}
            <a href={`/docs/skill-md#${p.keyInfo.anchor}`} target="_blank" rel="noreferrer">
              reference
            </a>
          </>
        ) : active === SKILL_MD ? (
          <span className={styles.muted}>Put the cursor on a frontmatter key to see what it does.</span>
        ) : (
          <span className={styles.muted}>{languageOf(active)}</span>
        )}
      </div>
      <ProblemsList diagnostics={diagnostics} onPick={p.onPickProblem} />
    </div>
  );
}
