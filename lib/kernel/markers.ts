/**
 * Marker events: the non-step events of a run (phase started/completed,
 * artifact persisted, overrides). On resume the run re-enters its current
 * phase; a marker already in the log is not written again, so the log stays a
 * faithful, duplicate-free history.
 *
 * Owns: marker identity (`data.marker`). Does not: memoize steps (step.ts).
 */
import type { EventDataMap, EventType } from './events';
import type { Attachments, Durability } from './journal';
import type { RunContext } from './context';
import type { RunEvent } from './ports';
import { merged } from './json';

export function markersOf(log: readonly RunEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of log) if (typeof e.data.marker === 'string') out.add(e.data.marker);
  return out;
}

/** the event types that carry a marker */
type MarkedType = { [T in EventType]: EventDataMap[T] extends { marker: string } ? T : never }[EventType];

export async function appendOnce<T extends MarkedType>(
  ctx: RunContext,
  marker: string,
  type: T,
  data: Omit<EventDataMap[T], 'marker'>,
  durability: Durability,
  att: Attachments = {},
): Promise<RunEvent | null> {
  if (ctx.markers.has(marker)) return null;
  const ev = await ctx.journal.append(type, merged(data, { marker }) as EventDataMap[T], durability, att);
  ctx.markers.add(marker);
  ctx.log.push(ev);
  return ev;
}
