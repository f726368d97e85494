'use client';
// Monaco and React Flow load in the browser only, after the page has painted.
import dynamic from 'next/dynamic';

const loading = (what: string) =>
  function Loading() {
    return <div style={{ padding: 16, color: 'var(--text-3)' }}>Loading the {what}…</div>;
  };

export const EditorPane = dynamic(() => import('@/components/editor/CodeEditor'), { ssr: false, loading: loading('editor') });
export const DiagramPane = dynamic(() => import('@/components/diagram/SkillDiagram'), { ssr: false, loading: loading('diagram') });
