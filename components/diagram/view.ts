// The diagram's view: whether the one shown is still the one the diagram
// chose itself (not zoomed or panned by the user since), and when the drawn
// nodes changed so that it is chosen again. Pure; no React.
import type { Viewport } from '@xyflow/react';

/** whether two views are the same (a view the diagram chose, and the one shown now) */
export function sameView(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.x - b.x) <= 0.5 && Math.abs(a.y - b.y) <= 0.5 && Math.abs(a.zoom - b.zoom) <= 1e-3;
}

/**
 * The drawn nodes' ids, as one key: it changes when a node is added or removed (a phase, a step), not
 * when a keystroke leaves the picture's nodes as they were.
 */
export function nodeSetKey(nodes: readonly { id: string }[]): string {
  return nodes
    .map((n) => n.id)
    .sort()
    .join('\n');
}
