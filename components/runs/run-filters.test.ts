import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routes } from '@/lib/api/routes';
import { failedAtChoices, isFiltered, parseRunFilters, runFiltersSearch, runsHref, setFilterWords, toRunQuery, type RunFilters } from './run-filters';
import { RANGE_TIME_FORMS } from '@/lib/views/run-time-range';

const T = Date.parse('2026-12-01T10:00:00.000Z');

test('filters round-trip through the URL in one order, whatever order they came in', () => {
  const f: RunFilters = { q: 'needle, "x"', skill: 'summarize', status: ['failed', 'aborted'], outcome: ['blocked'], failed: '__post__/2', attention: true, range: '24h', from: T, to: T + 60_000 };
  const search = runFiltersSearch(f);
  assert.equal(search, '?q=needle%2C+%22x%22&skill=summarize&status=failed%2Caborted&outcome=blocked&failed=__post__%2F2&attention=1&range=24h&from=2026-12-01T10%3A00%3A00.000Z&to=2026-12-01T10%3A01%3A00.000Z');
  const back = parseRunFilters(new URLSearchParams(search.slice(1)));
  assert.deepEqual(back, { filters: f, problems: [] });
  // a server component's searchParams object reads the same
  assert.deepEqual(parseRunFilters({ status: 'failed', attention: 'true', from: String(T) }).filters, { status: ['failed'], attention: true, from: T });
  assert.equal(runsHref({}), '/runs');
  assert.equal(isFiltered({}), false);
  assert.equal(isFiltered({ attention: false, status: [] }), false);
  assert.equal(isFiltered({ skill: 'a' }), true);
});

test('a value that is not one is named where it stands, and that filter is left out', () => {
  const { filters, problems } = parseRunFilters(new URLSearchParams('status=failed,sleeping&outcome=meh&range=2w&from=yesterday&attention=maybe&skill=ok'));
  assert.deepEqual(filters, { skill: 'ok' });
  assert.equal(problems.length, 5);
  assert.match(problems[0], /^\?status=failed,sleeping: there is no status “sleeping” — a run's status is one of queued, running, completed, failed, aborted/);
  assert.match(problems[1], /^\?outcome=meh: there is no outcome “meh”/);
  assert.match(problems[2], /^\?attention=maybe: say attention=1/);
  assert.match(problems[3], /^\?range=2w: a range is one of 1h, 24h, 7d, 30d/);
  // in the words `stagecraft runs --since` uses for the same text (one RANGE_TIME_FORMS)
  assert.ok(problems[4].startsWith(`?from=yesterday: not a time — give ${RANGE_TIME_FORMS}.`));
  assert.match(problems[4], /a year \(2026, four digits\) or epoch milliseconds \(any other whole number\), from 1970 on/);
  // each says what the list shows instead, as the others do ("Showing every status.")
  assert.match(problems[2], / Showing every run, whether it needs attention or not\.$/);
  assert.match(problems[4], / Showing every time from the first run on\.$/);
  assert.match(parseRunFilters(new URLSearchParams('to=soon')).problems[0], /^\?to=soon: not a time — .* Showing every time up to now\.$/);
  const empty = parseRunFilters(new URLSearchParams(`from=${T}&to=${T}`));
  assert.deepEqual(empty.filters, {});
  assert.match(empty.problems[0], /not before \?to=/);
  // a search is trimmed and cut to what the API takes
  assert.equal(parseRunFilters(new URLSearchParams(`q=${'x'.repeat(500)}`)).filters.q?.length, 200);
  assert.deepEqual(parseRunFilters(new URLSearchParams('q=%20%20&skill=')).filters, {});
});

// `?to=2026-12-04` ended at that day's first instant, leaving its runs out (as `stagecraft runs --until` did)
test('a date alone as ?to= is that whole day (up to the next one); a time is exact; the same day for both is that day', () => {
  const day = Date.parse('2026-12-04');
  assert.deepEqual(parseRunFilters(new URLSearchParams('from=2026-12-04&to=2026-12-04')), { filters: { from: day, to: day + 86_400_000 }, problems: [] });
  assert.equal(parseRunFilters(new URLSearchParams('to=2026-12-04T12:00:00Z')).filters.to, Date.parse('2026-12-04T12:00:00Z'));
  assert.equal(parseRunFilters(new URLSearchParams(`to=${day}`)).filters.to, day);
  assert.match(parseRunFilters(new URLSearchParams('from=2026-12-05&to=2026-12-04')).problems[0], /not before \?to=/);
});

// `?to=2026-12` ended at the 1st's first instant (as `stagecraft runs --until 2026-12` did): the month's runs were left out
test('a year-month as ?to= is that whole month (up to the next one); as ?from= its first instant; the same month for both is that month', () => {
  const dec = Date.parse('2026-12-01T00:00:00Z');
  const jan = Date.parse('2027-01-01T00:00:00Z');
  assert.deepEqual(parseRunFilters(new URLSearchParams('from=2026-12&to=2026-12')), { filters: { from: dec, to: jan }, problems: [] });
  assert.deepEqual(parseRunFilters(new URLSearchParams('to=2026-11')).filters, { to: dec });
  assert.match(parseRunFilters(new URLSearchParams('from=2027-01&to=2026-12')).problems[0], /not before \?to=/);
});

// `?from=2026` / `?to=2026` were read as epoch ms (2 s after 1970), as `stagecraft runs --since/--until 2026` were
test('a year alone as ?to= is that whole year (up to the next one); as ?from= its first instant; other whole numbers are epoch ms', () => {
  const y2026 = Date.parse('2026-01-01T00:00:00Z');
  const y2027 = Date.parse('2027-01-01T00:00:00Z');
  assert.deepEqual(parseRunFilters(new URLSearchParams('from=2026&to=2026')), { filters: { from: y2026, to: y2027 }, problems: [] });
  assert.deepEqual(parseRunFilters(new URLSearchParams('from=2026-12&to=2026')).filters, { from: Date.parse('2026-12-01T00:00:00Z'), to: y2027 });
  assert.match(parseRunFilters(new URLSearchParams('from=2027&to=2026')).problems[0], /not before \?to=/);
  assert.deepEqual(parseRunFilters(new URLSearchParams('from=123&to=12345')).filters, { from: 123, to: 12345 });
  assert.match(parseRunFilters(new URLSearchParams('to=soon')).problems[0], /a year \(2026, four digits\)/);
});

test("the API's query: a relative range reaches back from now, a later from wins; the route's schema takes it", () => {
  assert.deepEqual(toRunQuery({ range: '1h', attention: true, status: ['failed'] }, T), { status: ['failed'], attention: true, from: T - 3_600_000 });
  assert.equal(toRunQuery({ range: '24h', from: T - 1000 }, T).from, T - 1000);
  assert.equal(toRunQuery({ range: '24h', from: T - 100 * 86_400_000 }, T).from, T - 86_400_000);
  const q = toRunQuery({ q: 'x', skill: 's', outcome: ['failed'], failed: 'lint/check', from: T, to: T + 1 }, T);
  assert.deepEqual(routes.listRuns.query.parse(q), q);
  assert.deepEqual(toRunQuery({}, T), {});
});

test('a NUL in the search, the skill or the failure point is named and left out (the database refuses one: the page would not load)', () => {
  const { filters, problems } = parseRunFilters(new URLSearchParams('q=Key%00Error&skill=sum%00&failed=__post__/0%00&status=failed'));
  assert.deepEqual(filters, { status: ['failed'] });
  assert.equal(problems.length, 3);
  assert.match(problems[0], /^\?q=Key\\u0000Error: holds a NUL character/);
  assert.match(problems[1], /^\?skill=/);
  assert.match(problems[2], /^\?failed=/);
  assert.deepEqual(parseRunFilters({ q: 'KeyError', skill: 'sum' }).filters, { q: 'KeyError', skill: 'sum' });
});

test('an empty list names what to change: the filters that are set, in the bar\'s order', () => {
  assert.equal(setFilterWords({ q: 'zzzzz' }), 'the search');
  assert.equal(setFilterWords({ status: ['aborted'], skill: 'tally' }), 'the skill or the status');
  assert.equal(setFilterWords({ q: 'x', failed: '__post__/0', range: '24h', attention: true }), 'the search, the failure point, the time range or Needs attention');
  assert.equal(setFilterWords({ from: T }), 'the time range');
  assert.equal(setFilterWords({}), null);
});

test('"Failed at" says which filters hide every failure, not "No failures", and always offers the chosen point', () => {
  assert.deepEqual(failedAtChoices({}, []), { choices: [], any: 'No failures' });
  assert.deepEqual(failedAtChoices({ q: 'zzzzz' }, []), { choices: [], any: 'Hidden by search', hint: 'No failed run matches the search' });
  assert.deepEqual(failedAtChoices({ skill: 'tally' }, []), { choices: [], any: 'Hidden by filters', hint: 'No failed run matches the skill' });
  assert.deepEqual(failedAtChoices({ q: 'x', status: ['completed'] }, []), { choices: [], any: 'Hidden by filters', hint: 'No failed run matches the search or the status' });
  assert.deepEqual(failedAtChoices({ q: 'x' }, ['lint/check', '__post__/0']), { choices: ['lint/check', '__post__/0'], any: 'Any stage or step' });
  assert.deepEqual(failedAtChoices({ q: 'x', failed: '__post__/1' }, []), { choices: ['__post__/1'], any: 'Any stage or step' });
});

test('"Failed at" says a search or filter hides failures only when some run did fail; with none ever, "No failures"', () => {
  assert.deepEqual(failedAtChoices({ q: 'zzzzz' }, [], false), { choices: [], any: 'No failures' });
  assert.deepEqual(failedAtChoices({ q: 'x', skill: 'tally' }, [], false), { choices: [], any: 'No failures' });
  assert.deepEqual(failedAtChoices({ q: 'zzzzz' }, [], true), { choices: [], any: 'Hidden by search', hint: 'No failed run matches the search' });
});
