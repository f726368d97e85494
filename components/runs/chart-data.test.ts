// The runs chart's axis and tooltip words: buckets of a few seconds (runs started within a minute)
// are told apart on the axis, not all labelled with the same minute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketLabel, chartRows, durationSummary, labelWidthPx, rightMarginPx } from './chart-data';

const at = (h: number, m: number, s: number) => new Date(2026, 11, 3, h, m, s).getTime();

test('buckets under a minute are labelled to the second, so the bars of one minute read apart', () => {
  const stats = { bucketMs: 4_000, buckets: [0, 1, 2].map((i) => ({ start: at(4, 0, 4 * i), byStatus: {} })) } as unknown as Parameters<typeof chartRows>[0];
  const labels = chartRows(stats).map((r) => r.label);
  assert.deepEqual(labels, ['04:00:00', '04:00:04', '04:00:08']);
  assert.equal(bucketLabel(at(4, 0, 4), 4_000, true), '2026-12-03 04:00:04–04:00:08');
});

test('buckets of a minute or more keep hours and minutes; a day or more, the date', () => {
  assert.equal(bucketLabel(at(13, 5, 0), 60_000), '13:05');
  assert.equal(bucketLabel(at(13, 0, 0), 3_600_000, true), '2026-12-03 13:00–14:00');
  assert.equal(bucketLabel(at(0, 0, 0), 86_400_000), '12-03');
});

test("the chart's duration words: the percentiles, that no run has ended, or nothing with no run ('duration no run has ended yet' over 0 runs)", () => {
  const stats = (total: number, duration: { count: number; p50: number | null; p95: number | null }) => ({ total, duration }) as unknown as Parameters<typeof durationSummary>[0];
  assert.equal(durationSummary(stats(0, { count: 0, p50: null, p95: null })), null);
  assert.equal(durationSummary(stats(2, { count: 0, p50: null, p95: null })), 'no run has ended yet');
  assert.match(durationSummary(stats(3, { count: 3, p50: 40, p95: 242 }))!, /^duration p50 40\s?ms · p95 242\s?ms \(of 3 ended runs\)$/);
});

// a week's chart (28 buckets of 6 hours) read 17:15, 05:15, 17:15, … on its axis: no day told apart
test('a chart spanning more than a day says the date with each time of day; one within a day, the time alone', () => {
  const rows = (n: number, bucketMs: number) =>
    chartRows({ bucketMs, buckets: Array.from({ length: n }, (_, i) => ({ start: at(5, 0, 0) + i * bucketMs, byStatus: {} })) } as unknown as Parameters<typeof chartRows>[0]).map((r) => r.label);
  assert.deepEqual(rows(28, 6 * 3_600_000).slice(0, 5), ['12-03 05:00', '12-03 11:00', '12-03 17:00', '12-03 23:00', '12-04 05:00']);
  assert.deepEqual(rows(48, 1_800_000).slice(0, 2), ['05:00', '05:30']);
  assert.deepEqual(rows(30, 86_400_000).slice(0, 2), ['12-03', '12-04']);
});

// the week's newest label ("12-06 13:15", some 67 px) sat 13 px left of its bar at 800 px: recharts moved it inwards to end within the drawing
test("the chart's right margin leaves the newest label room to sit centred under its bar, and is no wider than that needs", () => {
  const label = labelWidthPx('12-06 13:15', 11);
  assert.ok(label >= 67, `${label} px`);
  for (const [span, buckets] of [[660, 28], [1200, 28], [660, 48], [300, 12]] as const) {
    const m = rightMarginPx(label, span, buckets, 8);
    const band = (span - m) / buckets;
    // the label's half past its bar's centre fits in the bar's half band and the margin, with at most 2 px to spare
    assert.ok(m + band / 2 >= label / 2, `span ${span}, ${buckets} buckets: margin ${m}`);
    assert.ok(m === 8 || m + band / 2 <= label / 2 + 2, `span ${span}, ${buckets} buckets: margin ${m} wider than needed`);
  }
  // a short label ("18:45") under wide bands needs no more than the least margin
  assert.equal(rightMarginPx(labelWidthPx('18:45', 11), 1200, 48, 8), 8);
  // before the drawing's width is known: the least margin
  assert.equal(rightMarginPx(label, -40, 28, 8), 8);
});
