// What the diagram pane says until its first picture is drawn: while its code arrives (the studio's
// placeholder, studio/panes.tsx) and while React Flow measures the cards and the first view is chosen
// (SkillDiagram) — the same words in the same place, a status a screen reader announces
// (`announce: false`: the words alone, when another status of the pane says what matters).
import { PANE_LOADING_STYLE } from '@/components/common/pane-loading';

export function DiagramLoading({ className, announce = true }: { className?: string; announce?: boolean }) {
  return (
    <div role={announce ? 'status' : undefined} className={className} style={PANE_LOADING_STYLE}>
      Loading the diagram…
    </div>
  );
}
