// What the editor pane says until Monaco is there: while its code arrives (the studio's placeholder,
// studio/panes.tsx) and while Monaco itself loads (CodeEditor) — the same words in the same place.
import { PANE_LOADING_STYLE } from '@/components/common/pane-loading';

export function EditorLoading() {
  return <div style={PANE_LOADING_STYLE}>Loading the editor…</div>;
}
