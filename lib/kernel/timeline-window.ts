/**
 * A window of a run's timeline: the same view with only some of its phase
 * visits in full (`visits`), the rest named by the outline — so a page of a
 * run with thousands of visits reads and draws the ones in view, not all.
 * Everything else (report, failures, usage, the outline) is the whole run's.
 *
 * Items belong to the visit whose key starts their id (`work#12/r2/model` is in
 * `work#12`); the postprocessor's (`__post__/…`) to none: it comes with every window.
 *
 * Owns: cutting the window and finding the visit of an item. Does not: build
 * the timeline (timeline.ts) or decide a window's size (the caller asks).
 */
import type { RunTimeline } from './timeline';

/** the visit key an item id starts with (`work#12` for `work#12/r2/model`); a visit's own id is its key */
export function visitKeyOfItem(id: string): string {
  const at = id.indexOf('/');
  return at < 0 ? id : id.slice(0, at);
}

/** the index in the outline of the visit that holds an item, or -1 (the postprocessor, `run`, an unknown id) */
export function visitIndexOfItem(t: Pick<RunTimeline, 'outline'>, id: string): number {
  const key = visitKeyOfItem(id);
  return t.outline.findIndex((v) => v.id === key);
}

/** visits [from, from + limit) in full, clamped to the run's; the rest by the outline */
export function timelineWindow<T extends Pick<RunTimeline, 'outline' | 'window'> & { visits: unknown[] }>(t: T, from: number, limit: number): T {
  const total = t.outline.length;
  const start = Math.max(0, Math.min(from, total));
  const end = Math.min(total, start + Math.max(0, limit));
  // t may itself be a window: its visits start at t.window.from
  const visits = t.visits.slice(start - t.window.from, end - t.window.from);
  if (start < t.window.from || end > t.window.to) throw new RangeError(`visits ${start}..${end} are not all in the timeline's window ${t.window.from}..${t.window.to}`);
  return { ...t, visits, window: { from: start, to: end } };
}

/** where the page-aligned window of `size` visits that holds an item (or the run's start) begins */
export function windowStartFor(t: Pick<RunTimeline, 'outline'>, id: string | null, size: number): number {
  const at = id === null ? -1 : visitIndexOfItem(t, id);
  return at < 0 ? 0 : Math.floor(at / size) * size;
}
