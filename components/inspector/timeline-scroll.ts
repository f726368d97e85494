// How the Timeline's box and the page are scrolled to show an item of the timeline: the part of the
// box the window shows, an item centred in that part by the box's own scroll, and the page moved so
// the Timeline's toolbar (the failure count, Next failure, Failed only, zoom) is not left above the
// window when an item is brought into view.

type Span = { top: number; bottom: number };

/** the part of the box on screen (the page may hold part of it above or below the window) */
export function shownPart(box: HTMLElement): Span {
  const rect = box.getBoundingClientRect();
  return { top: Math.max(rect.top, 0), bottom: Math.min(rect.bottom, window.innerHeight) };
}

/** the box scrolled so `item` sits in the middle of `view` (a part of the box); whether it moved */
export function centreInBox(box: HTMLElement, item: HTMLElement, view: Span): boolean {
  const at = item.getBoundingClientRect();
  const before = box.scrollTop;
  box.scrollTop += at.top - view.top - Math.max(0, (view.bottom - view.top - at.height) / 2);
  return box.scrollTop !== before;
}

/**
 * After the page was scrolled to centre `item` (scrollIntoView): where that left the top of the
 * Timeline (`section`: its title and toolbar) above the window, the page goes back up — so the whole
 * Timeline is in the window where it fits (what is above it, the run's header, as much as it can),
 * else its top at the window's top — and the item is centred again in the part of the box shown.
 */
export function keepToolbarInView(section: HTMLElement, box: HTMLElement, item: HTMLElement): void {
  const s = section.getBoundingClientRect();
  if (s.top >= 0) return;
  const up = Math.max(-s.top, Math.min(window.innerHeight - s.bottom, window.scrollY));
  window.scrollBy({ top: -up, behavior: 'instant' });
  const view = shownPart(box);
  const at = item.getBoundingClientRect();
  if (at.top < view.top || at.bottom > view.bottom) centreInBox(box, item, view);
}
