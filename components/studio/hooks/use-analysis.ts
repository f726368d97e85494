'use client';
// The analysis of the working copy: findings, the diagram model and the frontmatter source, from
// one `analyzeBundle` pass shortly after the last keystroke. While the frontmatter does not parse,
// the last good diagram is kept (and said to be stale).
import { useCallback, useEffect, useState } from 'react';
import { analyzeBundle, type BundleAnalysis } from '@/lib/skill/analyze-bundle';
import type { DiagramModel } from '@/lib/skill/diagram';
import type { Files } from '@/lib/views';

/** the pause after a keystroke before the text is analysed again (the analysis itself takes ≤ 16 ms) */
export const REANALYZE_MS = 25;

export type Analysis = {
  current: BundleAnalysis;
  /** the diagram to draw: the current one, or the last good one while the frontmatter does not parse */
  diagram: DiagramModel | null;
  stale: boolean;
};

type State = { current: BundleAnalysis; lastGood: DiagramModel | null };

export function useAnalysis(files: Files, opts: { name: string; knownSkills: readonly string[] }): Analysis {
  const { name, knownSkills } = opts;
  const analyze = useCallback(
    (f: Files) => analyzeBundle(f, { knownSkills: knownSkills.includes(name) ? [...knownSkills] : [...knownSkills, name], skillName: name }),
    [knownSkills, name],
  );
  const [state, setState] = useState<State>(() => {
    const current = analyze(files);
    return { current, lastGood: current.diagram };
  });
  useEffect(() => {
    const t = setTimeout(() => {
      const current = analyze(files);
      setState((prev) => ({ current, lastGood: current.diagram ?? prev.lastGood }));
    }, REANALYZE_MS);
    return () => clearTimeout(t);
  }, [files, analyze]);
  const diagram = state.current.diagram ?? state.lastGood;
  return { current: state.current, diagram, stale: !state.current.diagram && diagram !== null };
}
