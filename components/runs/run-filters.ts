// The runs list's filters as the page's URL says them (`/runs?skill=x&status=failed&range=24h&q=…`),
// so a link shares exactly what is shown: read from the URL (with a located word for every value
// that is not one), written back in one canonical order, and turned into the API's query
// (RunFilterQuery) — a relative range (`24h`) becomes `from` at the moment it is resolved.
import { RUN_OUTCOME_WORDS, RUN_STATUS_WORDS, isEmptyRange, parseRangeTime, RANGE_TIME_FORMS, untilOf, type RunFilterQuery, type RunStatusWord } from '@/lib/views';

type RunOutcomeWord = (typeof RUN_OUTCOME_WORDS)[number];

/** the relative time ranges offered, and how long each reaches back */
export const RUN_RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type RunRange = keyof typeof RUN_RANGES;

/** runs per keyset page (the server's first page and each one after it; here, not in the client module, so the page reads the number) */
export const RUN_PAGE_SIZE = 100;
/** the chart's buckets */
export const RUN_CHART_BUCKETS = 48;

/** the longest search the API takes */
export const MAX_SEARCH_CHARS = 200;

export type RunFilters = {
  q?: string;
  skill?: string;
  status?: RunStatusWord[];
  outcome?: RunOutcomeWord[];
  /** a failure point, as a row's `failedAt` says it */
  failed?: string;
  attention?: boolean;
  /** the last hour, day, … (relative to when it is resolved) */
  range?: RunRange;
  /** an absolute time range, epoch ms: from inclusive, to exclusive */
  from?: number;
  to?: number;
};

/** the URL's names, in the order a link writes them */
const ORDER = ['q', 'skill', 'status', 'outcome', 'failed', 'attention', 'range', 'from', 'to'] as const;

type Search = URLSearchParams | Record<string, string | string[] | undefined>;

function getter(sp: Search): (k: string) => string | undefined {
  if (sp instanceof URLSearchParams) return (k) => sp.get(k) ?? undefined;
  return (k) => {
    const v = sp[k];
    return Array.isArray(v) ? v[0] : v;
  };
}

const isIn = <T extends string>(words: readonly T[], w: string): w is T => (words as readonly string[]).includes(w);

function words<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], problems: string[]): T[] | undefined {
  if (!raw) return undefined;
  const all = raw.split(',').filter((w) => w !== '');
  const bad = all.filter((w) => !isIn(allowed, w));
  if (bad.length) problems.push(`?${name}=${raw}: there is no ${name} “${bad.join('”, “')}” — a run's ${name} is one of ${allowed.join(', ')}. Showing every ${name}.`);
  const good = all.filter((w): w is T => isIn(allowed, w));
  return good.length && !bad.length ? [...new Set(good)] : undefined;
}

/** The filters a URL's query names, and a located sentence for each value that is not one (that filter is then left out). */
export function parseRunFilters(sp: Search): { filters: RunFilters; problems: string[] } {
  const get = getter(sp);
  const problems: string[] = [];
  const filters: RunFilters = {};
  // a NUL is in no run id, input, name or error, and the database refuses one outright: said, and left out
  const text = (name: 'q' | 'skill' | 'failed'): string | undefined => {
    const raw = get(name)?.trim();
    if (!raw?.includes('\u0000')) return raw;
    problems.push(`?${name}=${JSON.stringify(raw).slice(1, -1).slice(0, 60)}: holds a NUL character (%00), which no run holds. Showing every run.`);
    return undefined;
  };
  const q = text('q');
  if (q) filters.q = q.slice(0, MAX_SEARCH_CHARS);
  const skill = text('skill');
  if (skill) filters.skill = skill;
  const status = words('status', get('status'), RUN_STATUS_WORDS, problems);
  if (status) filters.status = status;
  const outcome = words('outcome', get('outcome'), RUN_OUTCOME_WORDS, problems);
  if (outcome) filters.outcome = outcome;
  const failed = text('failed');
  if (failed) filters.failed = failed;
  const attention = get('attention');
  if (attention === '1' || attention === 'true') filters.attention = true;
  else if (attention && attention !== '0' && attention !== 'false') problems.push(`?attention=${attention}: say attention=1 to show only the runs that need attention. Showing every run, whether it needs attention or not.`);
  const range = get('range');
  if (range) {
    if (isIn(Object.keys(RUN_RANGES) as RunRange[], range)) filters.range = range;
    else problems.push(`?range=${range}: a range is one of ${Object.keys(RUN_RANGES).join(', ')}. Showing every time.`);
  }
  for (const k of ['from', 'to'] as const) {
    const raw = get(k);
    if (!raw) continue;
    // read as `stagecraft runs --since/--until` reads it (2026 is a year, not epoch ms)
    const ms = parseRangeTime(raw);
    if (ms === undefined) problems.push(`?${k}=${raw}: not a time — give ${RANGE_TIME_FORMS}. Showing every time${k === 'from' ? ' from the first run on' : ' up to now'}.`);
    // a date alone as the end is that whole day, a year-month that whole month, a year that whole year, as for `stagecraft runs --until`
    else filters[k] = k === 'to' ? untilOf(raw, ms) : ms;
  }
  if (filters.from !== undefined && filters.to !== undefined && isEmptyRange(filters.from, filters.to)) {
    problems.push(`?from= is not before ?to=: the time range is empty, so it is left out.`);
    delete filters.from;
    delete filters.to;
  }
  return { filters, problems };
}

/** The filters as a query string, names in one order (`?skill=x&status=failed`), '' when there are none. */
export function runFiltersSearch(f: RunFilters): string {
  const sp = new URLSearchParams();
  for (const k of ORDER) {
    const v = f[k];
    if (v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (k === 'from' || k === 'to') sp.set(k, new Date(v as number).toISOString());
    else if (k === 'attention') sp.set(k, '1');
    else sp.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** the runs page showing these filters */
export const runsHref = (f: RunFilters): string => `/runs${runFiltersSearch(f)}`;

/** whether anything narrows the list */
export const isFiltered = (f: RunFilters): boolean => runFiltersSearch(f) !== '';

/** The API's query for these filters; a relative range reaches back from `now` (a later `from` wins). */
export function toRunQuery(f: RunFilters, now: number): RunFilterQuery {
  const rangeFrom = f.range ? now - RUN_RANGES[f.range] : undefined;
  const from = rangeFrom !== undefined && f.from !== undefined ? Math.max(rangeFrom, f.from) : (rangeFrom ?? f.from);
  const q: RunFilterQuery = {};
  if (f.skill) q.skill = f.skill;
  if (f.status) q.status = f.status;
  if (f.outcome) q.outcome = f.outcome;
  if (f.failed) q.failed = f.failed;
  if (f.attention) q.attention = true;
  if (from !== undefined) q.from = Math.max(0, Math.floor(from));
  if (f.to !== undefined) q.to = f.to;
  if (f.q) q.q = f.q;
  return q;
}

/** what is set, as the list says it when nothing matches: "the search", "the status or the skill", … (null: nothing set) */
export function setFilterWords(f: RunFilters): string | null {
  const words = [
    f.q ? 'the search' : null,
    f.skill ? 'the skill' : null,
    f.status?.length ? 'the status' : null,
    f.outcome?.length ? 'the outcome' : null,
    f.failed ? 'the failure point' : null,
    f.range || f.from !== undefined || f.to !== undefined ? 'the time range' : null,
    f.attention ? 'Needs attention' : null,
  ].filter((w): w is string => w !== null);
  if (!words.length) return null;
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * The "Failed at" select's choices and its first option's words. The failure points are those of
 * the runs the other filters leave, so when none is left and some run did fail (`anyFailed`, the
 * server's word; unknown: assumed), the words say which filters hide them — "No failures" would
 * say that no run ever failed — short, as the select's width is capped, and `hint` says it whole.
 * When no run ever failed, nothing is hidden: "No failures", whatever is set. A chosen point is
 * always offered (a shared link).
 */
export function failedAtChoices(f: RunFilters, failures: string[], anyFailed = true): { choices: string[]; any: string; hint?: string } {
  const choices = f.failed && !failures.includes(f.failed) ? [f.failed, ...failures] : failures;
  if (choices.length) return { choices, any: 'Any stage or step' };
  const others = setFilterWords({ ...f, failed: undefined });
  if (!others || !anyFailed) return { choices, any: 'No failures' };
  return { choices, any: others === 'the search' ? 'Hidden by search' : 'Hidden by filters', hint: `No failed run matches ${others}` };
}
