// What the Run panel says of the model script picked (model.yaml) against the skill's phases, as the
// diagram has them: a script with no turns for the entry phase fails a run at once, while Problems
// (skill.md's) says valid. The studio renders again only when the phases or the entry change.
import { useMemo, useSyncExternalStore } from 'react';
import type { Files } from '@/lib/views';
import { scriptPhaseGap } from '@/lib/skill/script-phases';
import type { DiagramSource } from './use-analysis';

/** the graph's shape as one string (a stable snapshot): the entry, then the phases */
function shapeOf(source: DiagramSource): string {
  const d = source.get();
  if (!d) return '';
  return JSON.stringify([d.entry, d.nodes.filter((n) => n.kind === 'phase').map((n) => (n as { name: string }).name)]);
}

export function useScriptNote(source: DiagramSource, files: Files, model: string): string | null {
  const shape = useSyncExternalStore(source.subscribe, () => shapeOf(source), () => '');
  return useMemo(() => {
    if (!shape || !model.startsWith('scripted:')) return null;
    const file = model.slice('scripted:'.length);
    const text = files[file];
    if (text === undefined) return null;
    const [entry, phases] = JSON.parse(shape) as [string | null, string[]];
    return scriptPhaseGap(text, file, { entry, phases });
  }, [shape, files, model]);
}
