'use client';
// The editor page: a skill's bundle in tabs (skill.md first), Monaco with the
// validator's markers and the Problems list, the diagram beside it (resizable,
// remembered), the run panel, the version list. Everything derived from the
// text — findings, the diagram, the key under the cursor — comes from one
// `analyzeBundle` pass, re-run shortly after each keystroke.
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { analyzeBundle } from '@/lib/skill/analyze-bundle';
import { bundlePaths, isModelScript, languageOf, SKILL_MD } from '@/lib/skill/bundle';
import type { DiagramModel } from '@/lib/skill/diagram';
import { itemsOf, nodeAt } from '@/lib/skill/diagram';
import { describeKey, keyPathIn, type KeyInfo } from '@/lib/skill/key-info';
import { inputContractOfFrontmatter } from '@/lib/skill/input-check';
import type { Files, SavedVersionView, SkillDetailView, VersionSummaryView } from '@/lib/views';
import { api, ApiError } from '@/lib/client/api';
import type { EditorApi } from '@/components/editor/CodeEditor';
import { EditorPane, DiagramPane } from './panes';
import { ProblemsList } from './ProblemsList';
import { RunPanel, type ModelChoice } from './RunPanel';
import { VersionsPanel } from './VersionsPanel';
import { NewFileDialog } from './NewFileDialog';
import { Splitter, useSplit } from './Splitter';
import { checkInputText } from './input-errors';
import { clearDraft, readDraft, rememberInput, sameFiles, writeDraft } from './drafts';
import { relativeTime } from '@/components/common/format';
import styles from './Studio.module.css';

export type StudioProps = {
  skill: SkillDetailView;
  versions: VersionSummaryView[];
  knownSkills: string[];
  openai: { configured: boolean; model: string | null };
};

type Notice = { kind: 'ok' | 'error' | 'info'; text: string } | null;

/** the pause after a keystroke before the text is analysed again (the analysis itself takes ≤ 16 ms) */
const REANALYZE_MS = 25;

export function Studio({ skill, versions: initialVersions, knownSkills, openai }: StudioProps) {
  const name = skill.name;
  const router = useRouter();
  const initialFiles: Files = skill.version?.files ?? { [SKILL_MD]: '' };
  const [saved, setSaved] = useState<{ hash: string | null; files: Files; at: number | null }>({
    hash: skill.version?.hash ?? null,
    files: initialFiles,
    at: skill.version?.savedAt ?? null,
  });
  const [files, setFiles] = useState<Files>(initialFiles);
  const [active, setActive] = useState<string>(SKILL_MD);
  const [versions, setVersions] = useState(initialVersions);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<null | 'save' | 'run'>(null);
  const [draftNote, setDraftNote] = useState<string | null>(null);
  const [showVersions, setShowVersions] = useState(false);
  const [newFile, setNewFile] = useState(false);
  const [cursor, setCursor] = useState<{ line: number; column: number } | null>(null);
  const editor = useRef<EditorApi | null>(null);
  const pendingReveal = useRef<{ line: number; column: number } | null>(null);
  const split = useSplit('stagecraft:split');
  const dirty = !sameFiles(files, saved.files);

  // ---------------------------------------------------------------- the draft
  const draftKept = useRef(true);
  useEffect(() => {
    const d = readDraft(name);
    if (d && !sameFiles(d.files, initialFiles)) {
      setFiles(d.files);
      loadIntoEditor(d.files);
      setDraftNote(
        d.base === (skill.version?.hash ?? null)
          ? `Your unsaved changes from ${new Date(d.at).toLocaleString()} are back.`
          : `Your unsaved changes from ${new Date(d.at).toLocaleString()} are back; they were made on an older version than the latest.`,
      );
    }
    // once, for the version the page opened with (a later save clears the draft; a later draft is written below)
  }, []);

  useEffect(() => {
    const t = setTimeout(() => {
      if (dirty) draftKept.current = writeDraft(name, { files, base: saved.hash, at: Date.now() });
      else clearDraft(name);
    }, 250);
    return () => clearTimeout(t);
  }, [files, dirty, name, saved.hash]);

  // leaving the page (a reload, closing the tab, a link to another page of the app) keeps the draft at once
  const latestDraft = useRef({ files, base: saved.hash, dirty });
  latestDraft.current = { files, base: saved.hash, dirty };
  useEffect(() => {
    const keep = () => {
      const d = latestDraft.current;
      if (d.dirty) draftKept.current = writeDraft(name, { files: d.files, base: d.base, at: Date.now() });
    };
    const warn = (e: BeforeUnloadEvent) => {
      keep();
      if (latestDraft.current.dirty && !draftKept.current) e.preventDefault();
    };
    window.addEventListener('pagehide', keep);
    window.addEventListener('beforeunload', warn);
    return () => {
      keep();
      window.removeEventListener('pagehide', keep);
      window.removeEventListener('beforeunload', warn);
    };
  }, [name]);

  // ---------------------------------------------------------------- analysis
  const analyzeNow = useCallback((f: Files) => analyzeBundle(f, { knownSkills: knownSkills.includes(name) ? knownSkills : [...knownSkills, name], skillName: name }), [knownSkills, name]);
  const [analysis, setAnalysis] = useState(() => analyzeNow(initialFiles));
  useEffect(() => {
    const t = setTimeout(() => setAnalysis(analyzeNow(files)), REANALYZE_MS);
    return () => clearTimeout(t);
  }, [files, analyzeNow]);

  const lastGood = useRef<DiagramModel | null>(analysis.diagram);
  if (analysis.diagram) lastGood.current = analysis.diagram;
  const diagram = analysis.diagram ?? lastGood.current;
  const stale = !analysis.diagram && lastGood.current !== null;
  const errors = analysis.diagnostics.filter((d) => d.severity === 'error');

  const skillMarkers = useMemo(() => analysis.diagnostics.filter((d) => d.file === SKILL_MD), [analysis]);
  const activeMarkers = active === SKILL_MD ? skillMarkers : analysis.diagnostics.filter((d) => d.file === active && d.line > 0);

  const highlight = useMemo(() => (cursor && diagram && active === SKILL_MD && !stale ? nodeAt(diagram, cursor.line, cursor.column) : null), [cursor, diagram, active, stale]);
  const keyInfo: KeyInfo | null = useMemo(() => {
    const source = analysis.analysis.source;
    if (!cursor || active !== SKILL_MD || !source) return null;
    const path = keyPathIn(source, cursor.line, cursor.column);
    if (!path) return null;
    return describeKey(path, (p) => {
      const v = source.nodeAt(p) as { value?: unknown } | undefined;
      return v && typeof v === 'object' && 'value' in v ? v.value : undefined;
    });
  }, [cursor, active, analysis]);

  // ---------------------------------------------------------------- moving the cursor
  const reveal = useCallback(
    (file: string, line: number, column: number) => {
      // the editor loads after the page (and the diagram) may already be used: the position waits for it
      if (file !== active || !editor.current) {
        pendingReveal.current = { line, column };
        setActive(file);
        return;
      }
      editor.current.reveal(line, column);
    },
    [active],
  );
  // the models may hold older text (a model outlives a visit to another page): the page's files win
  const filesRef = useRef(files);
  filesRef.current = files;
  const modelPath = useCallback((p: string) => `/skills/${name}/${p}`, [name]);
  const loadIntoEditor = useCallback((f: Files) => editor.current?.load(Object.fromEntries(Object.entries(f).map(([p, t]) => [modelPath(p), t]))), [modelPath]);
  const onEditorReady = useCallback((api: EditorApi) => {
    editor.current = api;
    loadIntoEditor(filesRef.current);
    const p = pendingReveal.current;
    pendingReveal.current = null;
    if (p) setTimeout(() => api.reveal(p.line, p.column), 0);
  }, [loadIntoEditor]);
  useEffect(() => {
    const p = pendingReveal.current;
    if (p && editor.current) {
      pendingReveal.current = null;
      setTimeout(() => editor.current?.reveal(p.line, p.column), 0);
    }
  }, [active]);

  const onSelectNode = useCallback(
    (id: string) => {
      const m = analysis.diagram ?? lastGood.current;
      if (!m) return;
      const node = m.nodes.find((n) => n.id === id);
      let span = node?.span;
      if (!span) {
        for (const n of m.nodes) {
          const hit = itemsOf(n).find((i) => i.id === id);
          if (hit) span = hit.span;
        }
      }
      // after React Flow has handled the click (it focuses the node it selected): the editor takes the focus
      if (span) setTimeout(() => reveal(SKILL_MD, span.line, span.column), 0);
    },
    [analysis, reveal],
  );

  // ---------------------------------------------------------------- save and run
  const refreshVersions = useCallback(async () => {
    try {
      setVersions((await api<{ versions: VersionSummaryView[] }>(`/api/skills/${name}/versions`)).versions);
    } catch {
      // the list is refreshed again on the next save
    }
  }, [name]);

  const save = useCallback(async (): Promise<string | null> => {
    if (!dirty && saved.hash) {
      setNotice({ kind: 'info', text: `Nothing to save: this is version ${saved.hash.slice(0, 8)}.` });
      return saved.hash;
    }
    setBusy('save');
    try {
      const r = await api<SavedVersionView>(`/api/skills/${name}/versions`, { body: { files } });
      setSaved({ hash: r.version.hash, files, at: r.version.savedAt });
      clearDraft(name);
      setDraftNote(null);
      const findings = r.validation.errors ? ` — skill.md has ${r.validation.errors} error${r.validation.errors === 1 ? '' : 's'}; runs are refused until they are fixed` : '';
      setNotice({ kind: r.validation.errors ? 'error' : 'ok', text: `${r.isNew ? 'Saved as version' : 'Saved: same as version'} ${r.version.hash.slice(0, 8)}${findings}` });
      void refreshVersions();
      return r.version.hash;
    } catch (e) {
      setNotice({ kind: 'error', text: `Not saved: ${(e as Error).message}` });
      return null;
    } finally {
      setBusy(null);
    }
  }, [dirty, saved.hash, name, files, refreshVersions]);

  const modelChoices: ModelChoice[] = useMemo(() => {
    const scripts = bundlePaths(files).filter((p) => isModelScript(p, files[p]));
    return [
      ...scripts.map((p) => ({ value: `scripted:${p}`, label: `Model script ${p}`, disabled: false })),
      openai.configured
        ? { value: 'openai', label: `OpenAI-compatible endpoint (${openai.model ?? 'STAGECRAFT_MODEL'})`, disabled: false }
        : { value: 'openai', label: 'OpenAI-compatible endpoint — not configured (set STAGECRAFT_MODEL_BASE_URL and STAGECRAFT_MODEL)', disabled: true },
    ];
  }, [files, openai]);
  const [model, setModel] = useState<string>(() => modelChoices.find((c) => !c.disabled)?.value ?? '');
  useEffect(() => {
    if (!modelChoices.some((c) => c.value === model && !c.disabled)) setModel(modelChoices.find((c) => !c.disabled)?.value ?? '');
  }, [modelChoices, model]);

  const [inputText, setInputText] = useState<string>(() => files['input.json'] ?? '{}\n');
  const inputContract = useMemo(() => inputContractOfFrontmatter(analysis.analysis.frontmatter), [analysis]);
  const inputCheck = useMemo(() => checkInputText(inputText, inputContract), [inputText, inputContract]);

  const run = useCallback(async () => {
    if (busy) return;
    if (errors.length) {
      setNotice({ kind: 'error', text: `skill.md has ${errors.length} error${errors.length === 1 ? '' : 's'}: fix ${errors.length === 1 ? 'it' : 'them'} (see Problems) before running.` });
      return;
    }
    if (inputCheck.problems.length || !inputCheck.value) {
      const p = inputCheck.problems[0];
      setNotice({ kind: 'error', text: `The input is not right: ${p ? `${p.line}:${p.column} ${p.message}` : 'it must be a JSON object'}.` });
      return;
    }
    if (!model) {
      setNotice({ kind: 'error', text: 'No model to run with: add a model script (model.yaml) to the skill, or configure an OpenAI-compatible endpoint.' });
      return;
    }
    const hash = await save();
    if (!hash) return;
    setBusy('run');
    try {
      const { runId } = await api<{ runId: string }>('/api/runs', { body: { skill: name, version: hash, input: inputCheck.value, model } });
      rememberInput(name, inputText);
      router.push(`/runs/${runId}`);
    } catch (e) {
      const where = e instanceof ApiError && e.details && Array.isArray(e.details.diagnostics) ? ' (see Problems)' : '';
      setNotice({ kind: 'error', text: `Not started: ${(e as Error).message}${where}` });
      setBusy(null);
    }
  }, [busy, errors.length, inputCheck, model, save, name, inputText, router]);

  // Ctrl/Cmd+S saves and Ctrl/Cmd+Enter runs from anywhere on the page (Monaco handles its own focus)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
      if (e.key === 's' || e.key === 'S') {
        e.preventDefault();
        void save();
      } else if (e.key === 'Enter') {
        e.preventDefault();
        void run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save, run]);

  // ---------------------------------------------------------------- files
  const paths = bundlePaths(files);
  const setFile = useCallback((p: string, text: string) => setFiles((f) => (f[p] === text ? f : { ...f, [p]: text })), []);
  const addFile = (p: string) => {
    setFiles((f) => ({ ...f, [p]: '' }));
    loadIntoEditor({ [p]: '' }); // a file of that path removed earlier may still have its model
    setActive(p);
  };
  const removeFile = (p: string) => {
    if (!window.confirm(`Remove ${p} from the bundle? (It stays in the saved versions.)`)) return;
    setFiles((f) => {
      const next = { ...f };
      delete next[p];
      return next;
    });
    setActive(SKILL_MD);
  };
  const restore = useCallback(
    async (hash: string) => {
      if (dirty && !window.confirm('Restoring replaces your unsaved changes. Restore anyway?')) return;
      try {
        const v = await api<{ files: Files }>(`/api/skills/${name}/versions/${hash}`);
        const r = await api<SavedVersionView>(`/api/skills/${name}/versions`, { body: { files: v.files } });
        setFiles(v.files);
        loadIntoEditor(v.files);
        setSaved({ hash: r.version.hash, files: v.files, at: r.version.savedAt });
        clearDraft(name);
        setActive(SKILL_MD);
        setNotice({ kind: 'ok', text: `Restored version ${hash.slice(0, 8)}: it is the latest again.` });
        void refreshVersions();
      } catch (e) {
        setNotice({ kind: 'error', text: `Not restored: ${(e as Error).message}` });
      }
    },
    [dirty, name, refreshVersions, loadIntoEditor],
  );

  const bodyLine = analysis.analysis.split?.bodyLine;

  return (
    <div className={styles.studio}>
      <div className={styles.toolbar}>
        <div className={styles.title}>
          <a href="/" className={styles.crumb}>
            Skills
          </a>
          <span aria-hidden="true">/</span>
          <h1>{name}</h1>
          <span className={styles.meta}>
            {saved.hash ? (
              <>
                version <code title={saved.hash}>{saved.hash.slice(0, 8)}</code>
                {saved.at ? <> · saved {relativeTime(saved.at, Date.now())}</> : null}
              </>
            ) : (
              'not saved yet'
            )}
            {dirty ? <span className={styles.dirty}> · unsaved changes</span> : null}
          </span>
        </div>
        <div className={styles.notice} role="status" aria-live="polite" data-kind={notice?.kind}>
          {notice?.text}
        </div>
        <div className={styles.actions}>
          <button type="button" className="btn" onClick={() => setShowVersions((v) => !v)} aria-expanded={showVersions} aria-controls="versions-panel">
            Versions ({versions.length})
          </button>
          <button type="button" className="btn" onClick={() => void save()} disabled={busy !== null} title="Save a new version (Ctrl/Cmd+S)">
            Save
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void run()} disabled={busy !== null} title="Save if needed, then start a run (Ctrl/Cmd+Enter)">
            Run
          </button>
        </div>
      </div>
      {draftNote ? (
        <div className={styles.banner} role="status">
          {draftNote}{' '}
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              setFiles(saved.files);
              loadIntoEditor(saved.files);
              clearDraft(name);
              setDraftNote(null);
            }}
          >
            Discard them
          </button>
        </div>
      ) : null}
      <div className={styles.main} style={{ gridTemplateColumns: `${split.percent}% 8px 1fr` }}>
        <div className={styles.left}>
          <Tabs.Root value={active} onValueChange={setActive} className={styles.tabsRoot}>
            <div className={styles.tabBar}>
              <Tabs.List aria-label="Files of the bundle" className={styles.tabList}>
                {paths.map((p) => (
                  <Tabs.Trigger key={p} value={p} className={styles.tab}>
                    {p}
                    {files[p] !== saved.files[p] ? <span className={styles.tabDirty} aria-hidden="true" /> : null}
                  </Tabs.Trigger>
                ))}
              </Tabs.List>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setNewFile(true)}>
                + New file
              </button>
              {active !== SKILL_MD ? (
                <button type="button" className="btn btn-ghost btn-sm btn-danger" onClick={() => removeFile(active)}>
                  Remove this file
                </button>
              ) : null}
            </div>
            <Tabs.Content value={active} forceMount className={styles.tabContent}>
              <section aria-label={`${active} editor`} className={`${styles.editor} nokey`}>
                <EditorPane
                  path={modelPath(active)}
                  language={active === SKILL_MD ? 'yaml' : languageOf(active)}
                  value={files[active] ?? ''}
                  onChange={(t) => setFile(active, t)}
                  markers={activeMarkers}
                  onCursor={(line, column) => setCursor({ line, column })}
                  onReady={onEditorReady}
                  onSave={() => void save()}
                  onRun={() => void run()}
                  bodyLine={active === SKILL_MD ? bodyLine : undefined}
                />
              </section>
            </Tabs.Content>
          </Tabs.Root>
          <div className={styles.keyInfo} role="note" aria-label="The key under the cursor">
            {keyInfo ? (
              <>
                <code>{keyInfo.path}</code> — {keyInfo.description}{' '}
                <a href={`/docs/skill-md#${keyInfo.anchor}`} target="_blank" rel="noreferrer">
                  reference
                </a>
              </>
            ) : active === SKILL_MD ? (
              <span className={styles.muted}>Put the cursor on a frontmatter key to see what it does.</span>
            ) : (
              <span className={styles.muted}>{languageOf(active)}</span>
            )}
          </div>
          <ProblemsList diagnostics={analysis.diagnostics} onPick={(d) => reveal(paths.includes(d.file) ? d.file : SKILL_MD, d.line, d.column)} />
        </div>
        <Splitter split={split} label="Resize the editor and the diagram" />
        <div className={styles.right}>
          <section aria-label="Skill diagram" className={styles.diagram}>
            <DiagramPane model={diagram} stale={stale} highlight={highlight} onSelect={onSelectNode} storageKey={`stagecraft:layout:${name}`} />
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
            running={busy === 'run'}
          />
        </div>
      </div>
      {showVersions ? (
        <VersionsPanel
          id="versions-panel"
          skill={name}
          versions={versions}
          current={saved.hash}
          working={dirty ? files : null}
          onRestore={(h) => void restore(h)}
          onClose={() => setShowVersions(false)}
        />
      ) : null}
      <NewFileDialog open={newFile} onOpenChange={setNewFile} existing={paths} onCreate={addFile} />
    </div>
  );
}
