'use client';
// The runs list's filters: a search (run ids, inputs, error messages; applied a moment after the
// last keystroke), skill, status, outcome, failure point, time range and "needs attention". Each
// change goes to the URL at once (RunsExplorer), so a link shares what is shown. It is also a
// plain GET form with the URL's names: Enter, or the Filter button before any script has loaded,
// gives the same page.
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { utcTime } from '@/components/common/format';
import { RUN_OUTCOME_WORDS, RUN_STATUS_WORDS } from '@/lib/views';
import { RUN_RANGES, MAX_SEARCH_CHARS, failedAtChoices, isFiltered, parseRunFilters, type RunFilters, type RunRange } from './run-filters';
import styles from './RunList.module.css';

/** the pause after the last keystroke before a search is applied */
export const SEARCH_DEBOUNCE_MS = 300;

const RANGE_WORDS: Record<RunRange, string> = { '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

type Props = {
  filters: RunFilters;
  onChange(next: RunFilters): void;
  skills: string[];
  /** failure points to offer (the most frequent first) */
  failures: string[];
  /** whether any run, whatever the filters, failed somewhere (the stats' word; absent: assumed) */
  anyFailed?: boolean;
};

const list = (v: string): string[] | undefined => (v ? v.split(',') : undefined);

export function RunFilterBar({ filters, onChange, skills, failures, anyFailed }: Props) {
  const q = filters.q ?? '';
  const [text, setText] = useState(q);
  // the URL's search changed by itself (Clear filters, back): the box follows it
  const [seen, setSeen] = useState(q);
  if (seen !== q) {
    setSeen(q);
    setText(q);
  }
  // a keystroke starts the wait; the filters it applies to are those of when it ends
  const latest = useRef({ filters, onChange });
  useEffect(() => {
    latest.current = { filters, onChange };
  });
  useEffect(() => {
    if (text.trim() === q) return;
    const t = setTimeout(() => latest.current.onChange({ ...latest.current.filters, q: text.trim() || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, q]);

  // a change applies the filters the form shows with it: a select changed (or a box ticked) before the
  // page hydrated reached no handler, and the next change took the filters from before, dropping it
  const form = useRef<HTMLFormElement>(null);
  const set = (patch: Partial<RunFilters>) => onChange({ ...(form.current ? shownFilters(form.current) : { ...filters, q: text.trim() || undefined }), ...patch });
  const status = filters.status?.join(',') ?? '';
  const outcome = filters.outcome?.join(',') ?? '';
  const { choices: failureChoices, any: anyFailure, hint: failureHint } = failedAtChoices(filters, failures, anyFailed);
  const skillChoices = filters.skill && !skills.includes(filters.skill) ? [filters.skill, ...skills] : skills;
  const hasTime = filters.from !== undefined || filters.to !== undefined;

  return (
    <form
      ref={form}
      method="get"
      action="/runs"
      className={styles.filters}
      role="search"
      aria-label="Filter runs"
      onSubmit={(e) => {
        e.preventDefault();
        // the filters the form shows: a search typed (or a box ticked) before the page hydrated reached
        // no handler, and Enter after it applied the filters from before — the box said one thing, the list another
        onChange(shownFilters(e.currentTarget));
      }}
    >
      <div className={`${styles.filter} ${styles.search}`}>
        <label htmlFor="runs-q">Search</label>
        <input
          id="runs-q"
          name="q"
          type="search"
          className="input"
          aria-label="Search runs"
          // short enough to read whole in the box at its 140 px minimum (1440 px, filtered: Clear filters on the row)
          placeholder="id, input, error…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={MAX_SEARCH_CHARS}
        />
      </div>
      <FilterSelect id="runs-skill" name="skill" label="Skill" any="Any skill" isData value={filters.skill ?? ''} choices={skillChoices.map((s) => [s, s])} onPick={(v) => set({ skill: v || undefined })} />
      <FilterSelect id="runs-status" name="status" label="Status" any="Any status" several value={status} choices={RUN_STATUS_WORDS.map((s) => [s, s])} onPick={(v) => set({ status: list(v) as RunFilters['status'] })} />
      <FilterSelect id="runs-outcome" name="outcome" label="Outcome" any="Any outcome" several value={outcome} choices={RUN_OUTCOME_WORDS.map((s) => [s, s])} onPick={(v) => set({ outcome: list(v) as RunFilters['outcome'] })} />
      <FilterSelect
        id="runs-failed"
        name="failed"
        label="Failed at"
        any={anyFailure}
        value={filters.failed ?? ''}
        choices={failureChoices.map((f) => [f, f])}
        onPick={(v) => set({ failed: v || undefined })}
        disabled={!failureChoices.length}
        hint={failureHint}
        isData
      />
      <FilterSelect id="runs-range" name="range" label="Started" any="Any time" value={filters.range ?? ''} choices={(Object.keys(RUN_RANGES) as RunRange[]).map((r) => [r, RANGE_WORDS[r]])} onPick={(v) => set({ range: (v || undefined) as RunRange | undefined })} />
      {hasTime ? (
        <span className={styles.timeChip}>
          {filters.from !== undefined ? <input type="hidden" name="from" value={new Date(filters.from).toISOString()} /> : null}
          {filters.to !== undefined ? <input type="hidden" name="to" value={new Date(filters.to).toISOString()} /> : null}
          {timeWords(filters.from, filters.to)}
          <button type="button" className="btn btn-ghost btn-sm" aria-label="Clear the time range" onClick={() => set({ from: undefined, to: undefined })}>
            ×
          </button>
        </span>
      ) : null}
      <div className={styles.actions}>
        <label className={styles.check}>
          <input type="checkbox" name="attention" value="1" checked={filters.attention ?? false} onChange={(e) => set({ attention: e.target.checked || undefined })} /> Needs attention
        </label>
        <button type="submit" className="btn">
          Filter
        </button>
        {isFiltered(filters) ? (
          <Link href="/runs" className="btn btn-ghost" onClick={(e) => (e.preventDefault(), onChange({}))}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}

/** the filters a form shows, read from it as a submit with no script sends them */
function shownFilters(form: HTMLFormElement): RunFilters {
  const sent = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === 'string') sent.append(k, v);
  return parseRunFilters(sent).filters;
}

type FilterSelectProps = {
  id: string;
  name: string;
  label: string;
  /** the first option's words: no filter */
  any: string;
  value: string;
  /** [value, words] */
  choices: [string, string][];
  onPick(value: string): void;
  disabled?: boolean;
  /** the filter takes several values (`a,b`, from a shared link): such a value is offered as itself */
  several?: boolean;
  /** its choices are the data's (skill names, failure points), of any length: the select's width is capped */
  isData?: boolean;
  /** the select's title when nothing is picked: why it offers nothing */
  hint?: string;
};

/** One of the bar's select filters. */
function FilterSelect({ id, name, label, any, value, choices, onPick, disabled, several, isData, hint }: FilterSelectProps) {
  return (
    <div className={styles.filter}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} className={isData ? `select ${styles.dataChoices}` : 'select'} title={isData && value ? value : hint} value={value} onChange={(e) => onPick(e.target.value)} disabled={disabled}>
        <option value="">{any}</option>
        {several && value.includes(',') ? <option value={value}>{value.replaceAll(',', ' or ')}</option> : null}
        {choices.map(([v, words]) => (
          <option key={v} value={v}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
}

function timeWords(from: number | undefined, to: number | undefined): string {
  // UTC: the same words on the server and in the browser
  const at = utcTime;
  if (from !== undefined && to !== undefined) return `${at(from)} – ${at(to)}`;
  return from !== undefined ? `since ${at(from)}` : `before ${at(to!)}`;
}
