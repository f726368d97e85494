'use client';
// React Flow draws each edge inside an <svg> of its own (EdgeWrapper) and takes no props for that
// svg: to assistive technology it is an image with no name, one per edge. The edge itself — the <g>
// inside, with role `img` and the name "from A to B" given as its ariaLabel — is what a screen reader
// should meet; the svg around it is only where it is drawn, so it is given role `none` (its edge
// stays exposed; aria-hidden would hide the edge with it). Edges come and go as the text is typed:
// the wrappers are marked as they appear.
import { useEffect, type RefObject } from 'react';

const EDGE_WRAPPERS = '.react-flow__edges > svg:not([role])';

export function useEdgeWrappersUnnamed(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const mark = () => {
      for (const svg of el.querySelectorAll(EDGE_WRAPPERS)) svg.setAttribute('role', 'none');
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(el, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root]);
}
