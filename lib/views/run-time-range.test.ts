// The end of a typed time range: a date alone is that whole day, a year-month that whole month (up to
// the next one's first instant: `to` is exclusive), a time of day or epoch ms exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEmptyRange, untilOf } from './run-time-range';

const end = (text: string) => untilOf(text, Date.parse(text));

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
