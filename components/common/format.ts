/**
 * Times, durations and models as people read them: "3 min ago" (with the exact
 * moment for a tooltip), "1.2 s", "scripted · model.yaml".
 * Relative times name no calendar date, so the server's and the browser's time
 * zones cannot make the first paint and the hydrated page disagree.
 */
import { plural } from '@/lib/kernel/plural';

const MINUTE_S = 60;
const HOUR_S = 60 * MINUTE_S;
const DAY_S = 24 * HOUR_S;

const ago = (n: number, unit: string) => `${plural(n, unit)} ago`;

export function relativeTime(ms: number, nowMs: number): string {
  const s = Math.round((nowMs - ms) / 1000);
  if (s < 45) return 'just now';
  if (s < 90) return '1 min ago';
  if (s < HOUR_S) return `${Math.round(s / MINUTE_S)} min ago`;
  if (s < DAY_S) return ago(Math.round(s / HOUR_S), 'hour');
  const days = Math.round(s / DAY_S);
  if (days === 1) return 'yesterday';
  if (days < 14) return ago(days, 'day');
  if (days < 60) return ago(Math.round(days / 7), 'week');
  if (days < 365) return ago(Math.round(days / 30), 'month');
  return ago(Math.round(days / 365), 'year');
}

/** The exact moment in the reader's locale and time zone (browser only: it depends on both). */
export function exactTime(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The exact moment in UTC: the same on the server and in the browser. */
export function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

// how long a run took: one formatter for the app and the CLI (lib/views/cut-short.ts)
export { formatDuration } from '@/lib/views/cut-short';

/**
 * A model as a person wants to read it in a list: a scripted model's path is a
 * long bundle folder, so it shows as `scripted · model.yaml` (the full string
 * goes in a tooltip).
 */
export function modelLabel(model: string): string {
  if (!model.startsWith('scripted:')) return model;
  const file = model.slice('scripted:'.length).split(/[\\/]/).pop();
  return file ? `scripted · ${file}` : model;
}
