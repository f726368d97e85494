'use client';
// The editor page: a skill's bundle in tabs with Monaco (BundleEditor), the diagram beside it
// (resizable, remembered), the run panel, the version list. The page composes; each concern is a
// hook of its own: the working copy (use-working-copy: a keystroke does not render the page), its
// draft (use-draft), the analysis of the text (use-analysis),
// the bridge to Monaco (use-editor-bridge), versions, saving and restoring (use-versions), starting
// a run (use-run-launcher) and the keys (use-shortcuts). The decisions they make are plain
// functions in studio-logic.ts.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { bundlePaths, SKILL_MD } from '@/lib/skill/bundle';
import { nodeAt } from '@/lib/skill/diagram';
import type { DiagnosticView, Files, SkillDetailView, VersionSummaryView, VersionView } from '@/lib/views';
import { DiagramPane } from './panes';
import { RunPanel } from './RunPanel';
import { VersionsPanel } from './VersionsPanel';
import { NewFileDialog } from './NewFileDialog';
import { Splitter, useSplit } from './Splitter';
import { BundleEditor } from './BundleEditor';
import { DraftBanner, LinkProblems, ReadOnlyBanner, StudioToolbar } from './StudioToolbar';
import { RecentRuns } from './RecentRuns';
import { failedMarkOf, type RunFailure } from './failed-node';
import { checkInputText } from './input-errors';
import { modelChoicesFor, pickModel, type Notice, type OpenAiSetting } from './studio-logic';
import { useAnalysis, type DiagramSource } from './hooks/use-analysis';
import { useDraft } from './hooks/use-draft';
import { useEditorBridge } from './hooks/use-editor-bridge';
import { useRunLauncher } from './hooks/use-run-launcher';
import { useShortcuts } from './hooks/use-shortcuts';
import { useVersions } from './hooks/use-versions';
import { useVersionsPanel } from './hooks/use-versions-panel';
import { changedPaths, useWorkingCopy } from './hooks/use-working-copy';
import { useRecentRuns } from './hooks/use-recent-runs';
import { useScriptNote } from './hooks/use-script-note';
import { CheckPastRuns } from '@/components/replay/CheckPastRuns';
import styles from './Studio.module.css';
import { isOutOfDate } from './stale-page';

export type StudioProps = {
  skill: SkillDetailView;
  versions: VersionSummaryView[];
  knownSkills: string[];
  openai: OpenAiSetting;
  /** the server's clock when the page was rendered */
  now: number;
  /** a version opened from a link (`?version=`): read-only unless it is the latest; null or absent: the latest */
  viewing?: { version: VersionView; isLatest: boolean } | null;
  /** a line to reveal and mark once the editor is there (`?line=`, `?file=`) */
  reveal?: { file: string; line: number } | null;
  /** what was not right in the link (each a located sentence) */
  linkProblems?: string[];
};

export function Studio({ skill, versions: openedVersions, knownSkills, openai, now, viewing = null, reveal: opening = null, linkProblems = [] }: StudioProps) {
  const name = skill.name;
  const opened = viewing?.version ?? skill.version;
  // an older version is shown as it was: its text cannot be edited or saved over (it can be run, or restored)
  const readOnly = viewing !== null && !viewing.isLatest;
  const [openedFiles] = useState<Files>(() => opened?.files ?? { [SKILL_MD]: '' });
  // drawn from the browser's cache after this tab saved a newer version (Back from a run): load it afresh
  useEffect(() => {
    if (!viewing && isOutOfDate(name, skill.version?.hash ?? null, skill.version?.savedAt ?? null)) window.location.reload();
  }, [name, skill.version, viewing]);
  const [notice, setNotice] = useState<Notice>(null);
  const versionsPanel = useVersionsPanel('versions-panel');
  const [newFile, setNewFile] = useState(false);
  const split = useSplit('stagecraft:split');

  const versions = useVersions(name, { saved: { hash: opened?.hash ?? null, files: openedFiles, at: opened?.savedAt ?? null }, versions: openedVersions }, setNotice);
  // each keystroke's files go to the analysis as they are made (the page is not rendered for them)
  const analyzeNow = useRef<(f: Files) => void>(() => undefined);
  const work = useWorkingCopy(openedFiles, versions.saved.files, (f) => analyzeNow.current(f));
  const { files, changed } = work;
  const dirty = changed.length > 0;
  const draft = useDraft(name, { files, base: versions.saved.hash, dirty, isEnabled: !readOnly, now: () => ({ files: work.current(), dirty }) });
  const offerDraft = useCallback(
    (load: (f: Files) => void) => {
      const restored = draft.offerBack();
      if (restored) work.replace(restored);
      // the models may hold older text (a model outlives a visit to another page): the page's files win
      load(restored ?? work.current());
    },
    [draft, work],
  );
  // an older version's files are models of their own, apart from the latest's (and its draft)
  const editor = useEditorBridge(readOnly && opened ? `${name}@${opened.hash.slice(0, 12)}` : name, offerDraft, opening);
  const onSkillMd = editor.active === SKILL_MD;
  const { current: analysis, diagram, stale, keyInfo, analyze, askKey } = useAnalysis(files, { name, knownSkills });
  useEffect(() => {
    analyzeNow.current = analyze;
  }, [analyze]);
  const errors = analysis.diagnostics.filter((d) => d.severity === 'error').length;
  // nothing drawn yet because skill.md's frontmatter does not parse: the diagram's empty state says so
  const isUnreadable = analysis.diagnostics.some((d) => d.rule === 'yaml_syntax' && d.file === SKILL_MD);

  // The cursor, kept out of the page's state (it moves at every keystroke): what it changes on the
  // page — the card under it, the key it is on — is set when that changes.
  const cursor = useRef<{ line: number; column: number } | null>(null);
  const [cursorAt, setCursorAt] = useState<string | null>(null);
  // the card last set under the cursor (committed or not): the same one queues no update
  const cursorAtRef = useRef(cursorAt);
  // the card under the cursor follows the diagram (which changes without rendering the studio)
  const diagramRef = useRef(diagram.get());
  useEffect(() => {
    const follow = () => {
      const d = (diagramRef.current = diagram.get());
      const c = cursor.current;
      const at = c && d ? nodeAt(d, c.line, c.column) : null;
      if (at !== cursorAtRef.current) setCursorAt((cursorAtRef.current = at));
    };
    follow();
    return diagram.subscribe(follow);
  }, [diagram]);
  // the cursor of another file's tab is on no key and no card of skill.md
  const highlight = onSkillMd && !stale ? cursorAt : null;
  const keyShown = onSkillMd ? keyInfo : null;

  const { reveal } = editor;
  const onSelectNode = useCallback(
    // after React Flow has handled the click (it focuses the node it selected): the editor takes the focus
    (at: { line: number; column: number }) => setTimeout(() => reveal(SKILL_MD, at.line, at.column), 0),
    [reveal],
  );

  // the same functions from one keystroke to the next: the panes they go to are not redrawn for them
  // (set before the editor shows another tab's model, which it does in an effect of its own)
  const activeRef = useRef(editor.active);
  useLayoutEffect(() => {
    activeRef.current = editor.active;
  });
  const onCursor = useCallback(
    (line: number, column: number) => {
      if (activeRef.current !== SKILL_MD) return;
      const c = cursor.current;
      if (c?.line === line && c.column === column) return;
      cursor.current = { line, column };
      askKey(line, column);
      const d = diagramRef.current;
      const at = d ? nodeAt(d, line, column) : null;
      if (at !== cursorAtRef.current) setCursorAt((cursorAtRef.current = at));
    },
    [askKey],
  );
  const onPickProblem = useCallback((d: DiagnosticView) => reveal(Object.hasOwn(work.current(), d.file) ? d.file : SKILL_MD, d.line, d.column), [reveal, work]);

  // ---------------------------------------------------------------- save and run
  const save = useCallback(async () => {
    if (readOnly) {
      setNotice({ kind: 'info', text: `Version ${versions.saved.hash?.slice(0, 8)} is read-only: open the latest to edit, or restore this one from Versions.` });
      return versions.saved.hash;
    }
    // the text as it is in the editor now, typed a moment ago or not
    const now = work.current();
    const isDirty = changedPaths(now, versions.saved.files).length > 0;
    const hash = await versions.save(now, isDirty);
    if (hash && isDirty) draft.forget();
    return hash;
  }, [versions, work, draft, readOnly]);

  // the same array while the choices read the same (a keystroke in skill.md changes none of them)
  const choicesNow = modelChoicesFor(files, openai);
  const choicesKey = JSON.stringify(choicesNow);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content on purpose
  const modelChoices = useMemo(() => choicesNow, [choicesKey]);
  const [pickedModel, setModel] = useState<string | null>(null);
  const model = pickModel(modelChoices, pickedModel);
  const scriptNote = useScriptNote(diagram, files, model);
  const [inputText, setInputText] = useState<string>(() => openedFiles['input.json'] ?? '{}\n');
  const inputContract = analysis.inputContract;
  const inputCheck = useMemo(() => checkInputText(inputText, inputContract), [inputText, inputContract]);
  const launcher = useRunLauncher(name, setNotice);
  const run = useCallback(() => launcher.run({ errors, input: inputCheck, inputText, model, save }), [launcher, errors, inputCheck, inputText, model, save]);
  useShortcuts({ save: () => void save(), run: () => void run() });
  const recent = useRecentRuns(name);

  // ---------------------------------------------------------------- files and versions
  const paths = bundlePaths(files);
  const addFile = (p: string) => {
    work.replace((f) => ({ ...f, [p]: '' }));
    editor.load({ [p]: '' }); // a file of that path removed earlier may still have its model
    editor.setActive(p);
  };
  const removeFile = (p: string) => {
    if (!window.confirm(`Remove ${p} from the bundle? (It stays in the saved versions.)`)) return;
    work.replace((f) => {
      const next = { ...f };
      delete next[p];
      return next;
    });
    editor.setActive(SKILL_MD);
  };
  const { setActive: showTab } = editor;
  const { settle } = work;
  // another tab's model is made from the page's files: they are the editor's before it changes
  const setActive = useCallback(
    (p: string) => {
      settle();
      // back on skill.md, the cursor is asked about again
      cursor.current = null;
      showTab(p);
    },
    [settle, showTab],
  );
  const restore = async (hash: string) => {
    if (dirty && !window.confirm('Restoring replaces your unsaved changes. Restore anyway?')) return;
    const restored = await versions.restore(hash);
    if (!restored) return;
    // it is the latest now: the studio opens on it, editable
    if (readOnly) return window.location.assign(`/skills/${encodeURIComponent(name)}`);
    work.replace(restored);
    editor.load(restored);
    draft.forget();
    editor.setActive(SKILL_MD);
  };
  const discardDraft = () => {
    work.replace(versions.saved.files);
    editor.load(versions.saved.files);
    draft.forget();
  };

  return (
    // the page's main landmark (the root layout has none: each page gives its own, as the runs pages do)
    <main className={styles.studio}>
      <StudioToolbar
        name={name}
        saved={versions.saved}
        now={now}
        dirty={dirty}
        notice={notice}
        versionCount={versions.versions.length}
        showVersions={versionsPanel.open}
        onToggleVersions={versionsPanel.toggle}
        busy={versions.isSaving || launcher.isStarting}
        readOnly={readOnly}
        onSave={() => void save()}
        onRun={() => void run()}
      >
        <CheckPastRuns skill={name} files={files} version={versions.saved.hash} />
      </StudioToolbar>
      {linkProblems.length ? <LinkProblems problems={linkProblems} /> : null}
      {readOnly && opened ? <ReadOnlyBanner name={name} hash={opened.hash} onRestore={() => void restore(opened.hash)} /> : null}
      {draft.note ? <DraftBanner note={draft.note} onDiscard={discardDraft} /> : null}
      <div className={styles.main} style={{ gridTemplateColumns: `${split.percent}% 8px 1fr` }}>
        <BundleEditor
          files={files}
          changed={changed}
          paths={paths}
          active={editor.active}
          onActive={setActive}
          modelPath={editor.modelPath}
          onText={work.type}
          onBlur={work.settle}
          diagnostics={analysis.diagnostics}
          bodyLine={analysis.bodyLine}
          keyInfo={keyShown}
          onCursor={onCursor}
          onEditorReady={editor.onEditorReady}
          onSave={() => void save()}
          onRun={() => void run()}
          onNewFile={() => setNewFile(true)}
          onRemoveFile={removeFile}
          readOnly={readOnly}
          onPickProblem={onPickProblem}
        />
        <Splitter split={split} label="Resize the editor and the diagram" />
        <div className={styles.right}>
          <section aria-label="Skill diagram" className={styles.diagram}>
            <LiveDiagram source={diagram} stale={stale} isUnreadable={isUnreadable} highlight={highlight} failure={recent.failure} onSelect={onSelectNode} storageKey={`stagecraft:layout:${name}`} />
          </section>
          <RunPanel
            inputText={inputText}
            onInputText={setInputText}
            problems={inputCheck.problems}
            contractPhase={inputContract?.phase ?? null}
            history={name}
            choices={modelChoices}
            model={model}
            onModel={setModel}
            scriptNote={scriptNote}
          />
          <RecentRuns skill={name} runs={recent.runs} error={recent.error} now={now} latest={versions.versions[0]?.hash ?? null} />
        </div>
      </div>
      {versionsPanel.open ? (
        <VersionsPanel
          id="versions-panel"
          skill={name}
          versions={versions.versions}
          current={versions.saved.hash}
          working={dirty ? files : null}
          onRestore={(h) => void restore(h)}
          onClose={versionsPanel.close}
        />
      ) : null}
      <NewFileDialog open={newFile} onOpenChange={setNewFile} existing={paths} onCreate={addFile} />
    </main>
  );
}

type LiveDiagramProps = {
  source: DiagramSource;
  stale: boolean;
  isUnreadable: boolean;
  highlight: string | null;
  failure: RunFailure | null;
  onSelect(at: { line: number; column: number }): void;
  storageKey: string;
};

/** The diagram as the analysis has it now: a reply that changes cards renders this, not the studio. */
function LiveDiagram({ source, stale, failure, ...rest }: LiveDiagramProps) {
  const model = useSyncExternalStore(source.subscribe, source.get, source.get);
  const failed = useMemo(() => (stale ? null : failedMarkOf(failure, model)), [failure, model, stale]);
  return <DiagramPane model={model} stale={stale} failed={failed} {...rest} />;
}
