'use client';
// Monaco and React Flow load in the browser only, after the page has painted.
import dynamic from 'next/dynamic';
import { DiagramLoading } from '@/components/diagram/DiagramLoading';

function EditorLoading() {
  return <div style={{ padding: 16, color: 'var(--text-3)' }}>Loading the editor…</div>;
}

export const EditorPane = dynamic(() => import('@/components/editor/CodeEditor'), { ssr: false, loading: EditorLoading });
export const DiagramPane = dynamic(() => import('@/components/diagram/SkillDiagram'), { ssr: false, loading: () => <DiagramLoading /> });
