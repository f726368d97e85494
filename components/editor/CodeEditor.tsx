'use client';
// One Monaco editor for the bundle's files: a model per file (so each keeps its
// undo history and view state), markers from Stagecraft's validator, the cursor
// reported out (the diagram follows it), and an imperative `reveal` (the diagram
// and the Problems list move the cursor). Loaded with ssr:false (EditorPane).
//
// The models own the text: typing goes model → onChange → the page's state, never
// back (a controlled `value` lags a fast typist by a render and overwrites what was
// just typed). Text that comes from elsewhere (a restored version, a discarded
// draft) is put into the models with `load`.
import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import type * as Monaco from 'monaco-editor';
import { monaco } from './monaco-setup';
import { OPTIONS } from './editor-options';
import { EditorLoading } from './EditorLoading';
import { installTabLeave } from './tab-leave';

export type EditorMarker = { severity: 'error' | 'warning'; message: string; line: number; column: number; endLine?: number; endColumn?: number; rule: string };

export type EditorApi = {
  reveal(line: number, column: number, focus?: boolean): void;
  /** centres a line, puts the cursor at its start and marks it (a link back to the source) */
  showLine(line: number): void;
  focus(): void;
  /** makes the models at these paths hold these texts (an undoable edit where one differs) */
  load(texts: Record<string, string>): void;
};

type Props = {
  /** the model's path, e.g. `/skills/blog_writer/skill.md` (monaco-yaml's schema matches `**\/skill.md`) */
  path: string;
  language: string;
  /** the text a model starts with when this path is first opened */
  value: string;
  onChange(text: string): void;
  markers: EditorMarker[];
  onCursor?(line: number, column: number): void;
  /** the editor's text lost the focus */
  onBlur?(): void;
  onReady?(api: EditorApi): void;
  onSave?(): void;
  onRun?(): void;
  /** first line of the Markdown body: suggestions stay quiet there (prompts are prose) */
  bodyLine?: number;
  /** shown, not edited (an older version) */
  readOnly?: boolean;
};

/** the text before the cursor ends in a mapping value (`key: …`, `- key: …`), not in a key */
const IN_VALUE = /^\s*(?:-\s+)*[^\s#:][^:#]*:\s/;

/** the class of a line a link pointed at (globals.css) */
export const SOURCE_LINE_CLASS = 'stagecraft-source-line';

const READ_ONLY_OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = { ...OPTIONS, readOnly: true, readOnlyMessage: { value: 'This is an older version, shown read-only. Open the latest to edit.' } };

export default function CodeEditor(props: Props) {
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  // the latest callbacks, for handlers registered once at mount
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    let marked: Monaco.editor.IEditorDecorationsCollection | null = null;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave?.());
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onRun?.());
    installTabLeave(editor, monaco);
    editor.onDidBlurEditorText(() => latest.current.onBlur?.());
    // The text goes out from the model's own change event, not the editor's: that one comes after
    // Monaco has updated its views for the edit, this one while it applies it, so a keystroke reaches
    // the analysis (a worker, on another core) a few milliseconds sooner.
    let listening: Monaco.IDisposable | undefined;
    const listen = () => {
      listening?.dispose();
      const model = editor.getModel();
      listening = model?.onDidChangeContent(() => latest.current.onChange(model.getValue()));
    };
    listen();
    editor.onDidChangeModel(listen);
    editor.onDidDispose(() => listening?.dispose());
    // Suggestions come as you type a key of the frontmatter; in a value (after `key:`) and in the
    // body they come on Ctrl+Space. Asked at every keystroke of a value, monaco-yaml's worker parses
    // and schema-matches the whole frontmatter each time (100–900 ms of a core on a large skill,
    // while the studio's own analysis waits for the CPU), mostly to offer nothing for free text.
    // The options are set when the cursor crosses between those places, not at every keystroke:
    // Monaco validates and compares its whole configuration on each updateOptions.
    let wasQuiet: boolean | null = null;
    editor.onDidChangeCursorPosition((e) => {
      const { bodyLine } = latest.current;
      const inBody = bodyLine !== undefined && e.position.lineNumber >= bodyLine;
      const before = editor.getModel()?.getLineContent(e.position.lineNumber).slice(0, e.position.column - 1) ?? '';
      const quiet = inBody || IN_VALUE.test(before);
      if (quiet !== wasQuiet) editor.updateOptions({ quickSuggestions: !quiet, suggestOnTriggerCharacters: !inBody });
      wasQuiet = quiet;
      latest.current.onCursor?.(e.position.lineNumber, e.position.column);
    });
    latest.current.onReady?.({
      reveal(line, column, focus = true) {
        const pos = { lineNumber: line, column };
        editor.setPosition(pos);
        editor.revealPositionInCenterIfOutsideViewport(pos);
        if (focus) editor.focus();
      },
      showLine(line) {
        const model = editor.getModel();
        const at = Math.min(Math.max(1, line), model?.getLineCount() ?? line);
        editor.setPosition({ lineNumber: at, column: 1 });
        editor.revealLineInCenter(at);
        marked?.clear();
        marked = editor.createDecorationsCollection([
          { range: new monaco.Range(at, 1, at, 1), options: { isWholeLine: true, className: SOURCE_LINE_CLASS, linesDecorationsClassName: `${SOURCE_LINE_CLASS}-gutter` } },
        ]);
        editor.focus();
      },
      focus: () => editor.focus(),
      load(texts) {
        for (const [p, text] of Object.entries(texts)) {
          const model = monaco.editor.getModel(monaco.Uri.parse(p));
          if (!model || model.getValue() === text) continue;
          model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
        }
      },
    });
  };

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model || model.uri.path !== props.path) return;
    monaco.editor.setModelMarkers(
      model,
      'stagecraft',
      props.markers.map((m) => ({
        severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        message: m.message,
        source: m.rule,
        startLineNumber: m.line,
        startColumn: m.column,
        endLineNumber: m.endLine ?? m.line,
        endColumn: m.endColumn ?? m.column + 1,
      })),
    );
  }, [props.markers, props.path]);

  return (
    <Editor
      path={props.path}
      language={props.language}
      defaultValue={props.value}
      onMount={onMount}
      options={props.readOnly ? READ_ONLY_OPTIONS : OPTIONS}
      theme="vs"
      loading={<EditorLoading />}
    />
  );
}
