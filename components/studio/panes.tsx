'use client';
// Monaco and React Flow load in the browser only, after the page has painted.
import dynamic from 'next/dynamic';
import { DiagramLoading } from '@/components/diagram/DiagramLoading';
import { EditorLoading } from '@/components/editor/EditorLoading';

export const EditorPane = dynamic(() => import('@/components/editor/CodeEditor'), { ssr: false, loading: EditorLoading });
export const DiagramPane = dynamic(() => import('@/components/diagram/SkillDiagram'), { ssr: false, loading: () => <DiagramLoading /> });
