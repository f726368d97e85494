// What the diagram pane says until its first picture is drawn: while its code arrives (the studio's
// placeholder, studio/panes.tsx) and while React Flow measures the cards and the first view is chosen
// (SkillDiagram) — the same words in the same place, a status a screen reader announces.
import { PANE_LOADING_STYLE } from '@/components/common/pane-loading';

export function DiagramLoading({ className }: { className?: string }) {
  return (
    <div role="status" className={className} style={PANE_LOADING_STYLE}>
      Loading the diagram…
    </div>
  );
}
