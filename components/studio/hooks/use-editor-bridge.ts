'use client';
// Between the page and Monaco: which file's model is shown, putting text into the models (a
// restored version, a discarded draft), and moving the cursor to a line of a file — which may have
// to wait, because the editor loads after the page (and the diagram) can already be used.
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

export function useEditorBridge(name: string, onReady: (load: (files: Files) => void) => void): EditorBridge {
  const [active, setActive] = useState<string>(SKILL_MD);
  const editor = useRef<EditorApi | null>(null);
  const pendingReveal = useRef<{ line: number; column: number } | null>(null);
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
      if (p) setTimeout(() => api.reveal(p.line, p.column), 0);
    },
    [load, onReady],
  );

  // a reveal that switched tabs lands once the tab's model is shown
  useEffect(() => {
    const p = pendingReveal.current;
    if (p && editor.current) {
      pendingReveal.current = null;
      setTimeout(() => editor.current?.reveal(p.line, p.column), 0);
    }
  }, [active]);

  return { active, setActive, modelPath, load, reveal, onEditorReady };
}
