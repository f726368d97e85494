// A typed time range: a date alone is that whole day, a year-month that whole month, a year that whole
// year (as an end, up to the next one's first instant: `to` is exclusive), a time of day or epoch ms exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEmptyRange, parseRangeTime, untilOf } from './run-time-range';

const end = (text: string) => untilOf(text, Date.parse(text));

// `--since 2026` / `?from=2026` was read as epoch ms (2 s after 1970), and `--until 2026` ended there
test('a year alone is that whole year: from its first instant, and as the end up to the next year', () => {
  const y2026 = Date.parse('2026-01-01T00:00:00Z');
  const y2027 = Date.parse('2027-01-01T00:00:00Z');
  assert.equal(parseRangeTime('2026'), y2026);
  assert.equal(parseRangeTime(' 2026 '), y2026);
  assert.equal(untilOf('2026', y2026), y2027);
  assert.equal(untilOf('2026', parseRangeTime('2026') ?? NaN), y2027);
});

test('the other texts: a whole number not of 4 digits is epoch ms; a date, month or date-time as Date.parse reads it; the rest none', () => {
  assert.equal(parseRangeTime('1764842400000'), 1764842400000);
  assert.equal(parseRangeTime('0'), 0);
  assert.equal(parseRangeTime('123'), 123);
  assert.equal(parseRangeTime('12345'), 12345);
  assert.equal(parseRangeTime('2026-12'), Date.parse('2026-12-01T00:00:00Z'));
  assert.equal(parseRangeTime('2026-12-04'), Date.parse('2026-12-04T00:00:00Z'));
  assert.equal(parseRangeTime('2026-12-04T10:00:00Z'), Date.parse('2026-12-04T10:00:00Z'));
  for (const none of ['yesterday', '', '12345678901234567', '1969-12-31']) assert.equal(parseRangeTime(none), undefined, none);
  // 16 digits can name an instant past the last a Date holds (8.64e15 ms): no time, not a store error
  assert.equal(parseRangeTime('8640000000000000'), 8.64e15);
  assert.equal(parseRangeTime('8640000000000001'), undefined);
  assert.equal(parseRangeTime('9999999999999999'), undefined);
});

// `--until 2026-12` / `?to=2026-12` ended at the 1st's first instant: the month's runs were left out
test('a year-month as the end is that whole month, up to the next month (December into January)', () => {
  assert.equal(end('2026-12'), Date.parse('2027-01-01T00:00:00Z'));
  assert.equal(end('2026-11'), Date.parse('2026-12-01T00:00:00Z'));
  assert.equal(end('2028-02'), Date.parse('2028-03-01T00:00:00Z'));
  assert.equal(untilOf(' 2026-01 ', Date.parse('2026-01')), Date.parse('2026-02-01T00:00:00Z'));
});

test('a date alone is that whole day; a date-time and epoch ms are exact', () => {
  assert.equal(end('2026-12-04'), Date.parse('2026-12-05T00:00:00Z'));
  assert.equal(end('2026-12-04T10:00:00Z'), Date.parse('2026-12-04T10:00:00Z'));
  assert.equal(untilOf('1764842400000', 1764842400000), 1764842400000);
});

test('a range is empty when it ends at (or before) its start: to is exclusive', () => {
  assert.equal(isEmptyRange(5, 5), true);
  assert.equal(isEmptyRange(6, 5), true);
  assert.equal(isEmptyRange(5, 6), false);
});
