'use client';
// Between the page and Monaco: which file's model is shown, putting text into the models (a
// restored version, a discarded draft), and moving the cursor to a line of a file — which may have
// to wait, because the editor loads after the page (and the diagram) can already be used. A link
// back to the source (`reveal`) opens its file with its line centred and marked.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EditorApi } from '@/components/editor/CodeEditor';
import { SKILL_MD } from '@/lib/skill/bundle';
import type { Files } from '@/lib/views';

export type EditorBridge = {
  /** the file whose tab is open */
  active: string;
  setActive(path: string): void;
  /** a file's Monaco model path (`/skills/<name>/<path>`) */
  modelPath(path: string): string;
  /** puts these texts into their files' models */
  load(files: Files): void;
  /** shows the file and puts the cursor at line:column (once the editor is there) */
  reveal(file: string, line: number, column: number): void;
  /** for EditorPane's onReady: `onReady(api)` runs first (the draft check) */
  onEditorReady(api: EditorApi): void;
};

type Pending = { line: number; column: number; isMarked?: boolean };

/** `name`: where the models live (`/skills/<name>/<path>`); `opening`: the file and line a link opened the page at */
export function useEditorBridge(name: string, onReady: (load: (files: Files) => void) => void, opening: { file: string; line: number } | null = null): EditorBridge {
  const [active, setActive] = useState<string>(opening?.file ?? SKILL_MD);
  const editor = useRef<EditorApi | null>(null);
  const pendingReveal = useRef<Pending | null>(opening ? { line: opening.line, column: 1, isMarked: true } : null);
  const show = (api: EditorApi, p: Pending) => (p.isMarked ? api.showLine(p.line) : api.reveal(p.line, p.column));
  const modelPath = useCallback((p: string) => `/skills/${name}/${p}`, [name]);
  const load = useCallback((f: Files) => editor.current?.load(Object.fromEntries(Object.entries(f).map(([p, t]) => [modelPath(p), t]))), [modelPath]);

  const reveal = useCallback(
    (file: string, line: number, column: number) => {
      if (file !== active || !editor.current) {
        pendingReveal.current = { line, column };
        setActive(file);
        return;
      }
      editor.current.reveal(line, column);
    },
    [active],
  );

  const onEditorReady = useCallback(
    (api: EditorApi) => {
      editor.current = api;
      // the models may hold older text (a model outlives a visit to another page): the page's files win
      onReady(load);
      const p = pendingReveal.current;
      pendingReveal.current = null;
      if (p) setTimeout(() => show(api, p), 0);
    },
    [load, onReady],
  );

  // a reveal that switched tabs lands once the tab's model is shown
  useEffect(() => {
    const p = pendingReveal.current;
    if (p && editor.current) {
      pendingReveal.current = null;
      setTimeout(() => editor.current && show(editor.current, p), 0);
    }
  }, [active]);

  return { active, setActive, modelPath, load, reveal, onEditorReady };
}
