// The runs chart's rows and words: a bucket's label at its width (a time of day for buckets
// under a day, to the second for buckets under a minute; a date for longer ones), and the duration summary above the chart.
import type { RunStatsView } from '@/lib/views';
import { formatDuration } from '@/components/common/format';
import { plural } from '@/lib/kernel/plural';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** the chart's height (its placeholder keeps the same, so the list does not move when it arrives) */
export const CHART_HEIGHT_PX = 170;

const pad = (n: number) => String(n).padStart(2, '0');

/** a time of day, to the second when buckets are under a minute (else every bar of a minute's runs reads the same) */
function clock(d: Date, bucketMs: number): string {
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return bucketMs < MINUTE_MS ? `${hm}:${pad(d.getSeconds())}` : hm;
}

/**
 * a bucket's start as the axis (short) or the tooltip (long, with its end) says it, in the reader's time
 * zone. `isDated`: the chart spans more than a day, so a time of day on the axis also says its date (a
 * week's chart of 6-hour buckets read 17:15, 05:15, 17:15… with no day told apart)
 */
export function bucketLabel(start: number, bucketMs: number, long = false, isDated = false): string {
  const d = new Date(start);
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = clock(d, bucketMs);
  if (!long) return bucketMs >= DAY_MS ? day.slice(5) : isDated ? `${day.slice(5)} ${time}` : time;
  const e = new Date(start + bucketMs);
  const end = bucketMs < DAY_MS ? clock(e, bucketMs) : `${e.getFullYear()}-${pad(e.getMonth() + 1)}-${pad(e.getDate())}`;
  return bucketMs < DAY_MS ? `${day} ${time}–${end}` : `${day} – ${end}`;
}

/**
 * an axis label's width in px at `fontPx`, on the wide side (digits as wide as the widest of the UI's
 * fonts draws them, 0.64 em): room kept for a label is then never short of it
 */
export function labelWidthPx(text: string, fontPx: number): number {
  let em = 0;
  for (const c of text) em += /[0-9A-Za-z]/.test(c) ? 0.64 : 0.37;
  return Math.ceil(em * fontPx);
}

/**
 * the chart's left and right margins: at least `least`, and room enough that the first and the newest
 * buckets' labels, centred under their bars, stay within the drawing. recharts moves the newest label
 * inwards when it would stand out past the drawing's end (the week's "12-06 13:15" sat 4 px left of
 * its bar at 1440 px and 13 px, half a band, at 800 px), and lets the first one be cut at the drawing's
 * start. The first label may stand under the count axis (below its lowest label): `countAxisPx`, that
 * axis' width on the narrow side; the bars' bands share the rest of `widthPx` with the margins. One px
 * over for the rounding.
 */
export function chartMarginsPx(o: { widthPx: number; countAxisPx: number; firstLabelPx: number; lastLabelPx: number; buckets: number; least: { left: number; right: number } }): { left: number; right: number } {
  let { left, right } = o.least;
  if (o.buckets < 1 || o.widthPx <= 0) return { left, right };
  // each margin narrows the bands, which asks a little more of both: a few rounds settle it
  for (let round = 0; round < 3; round++) {
    const halfBand = Math.max(0, o.widthPx - left - o.countAxisPx - right) / o.buckets / 2;
    left = Math.max(o.least.left, Math.ceil(o.firstLabelPx / 2 - halfBand - o.countAxisPx) + 1);
    right = Math.max(o.least.right, Math.ceil(o.lastLabelPx / 2 - halfBand) + 1);
  }
  return { left, right };
}

export type ChartRow = RunStatsView['buckets'][number] & { label: string };

export const chartRows = (s: RunStatsView): ChartRow[] => {
  const isDated = s.buckets.length * s.bucketMs > DAY_MS;
  return s.buckets.map((b) => ({ ...b, label: bucketLabel(b.start, s.bucketMs, false, isDated) }));
};

/** "duration p50 1.2 s · p95 3.4 s (of 12 ended runs)", or that no run has ended yet; null when there is no run to say it of */
export function durationSummary(s: RunStatsView): string | null {
  const d = s.duration;
  if (!s.total) return null;
  if (!d.count || d.p50 === null || d.p95 === null) return 'no run has ended yet';
  return `duration p50 ${formatDuration(d.p50)} · p95 ${formatDuration(d.p95)} (of ${plural(d.count, 'ended run')})`;
}
