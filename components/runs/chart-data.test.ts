// The runs chart's axis and tooltip words: buckets of a few seconds (runs started within a minute)
// are told apart on the axis, not all labelled with the same minute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketLabel, chartRows, chartMarginsPx, durationSummary, labelWidthPx } from './chart-data';

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

// the week's newest label ("12-06 13:15", some 67 px) sat 13 px left of its bar at 800 px (recharts moved it inwards to end within
// the drawing), and its first one was cut at the drawing's start at 1024 px once the count axis took only its labels' width
test("the chart's margins leave the first and the newest labels room to sit centred under their bars, and are no wider than that needs", () => {
  const label = labelWidthPx('12-06 13:15', 11);
  assert.ok(label >= 67, `${label} px`);
  const least = { left: 2, right: 8 };
  for (const [widthPx, buckets, countAxisPx] of [[700, 28, 14], [900, 28, 14], [1220, 28, 30], [700, 48, 14], [300, 12, 14]] as const) {
    const m = chartMarginsPx({ widthPx, countAxisPx, firstLabelPx: label, lastLabelPx: label, buckets, least });
    const halfBand = (widthPx - m.left - countAxisPx - m.right) / buckets / 2;
    const said = `${widthPx} px, ${buckets} buckets, count axis ${countAxisPx} px: margins ${m.left}, ${m.right}`;
    // each label's half beside its bar's centre fits in the half band and the margin (the first's, the count axis too), with at most 2 px to spare
    assert.ok(m.right + halfBand >= label / 2, said);
    assert.ok(m.left + countAxisPx + halfBand >= label / 2, said);
    assert.ok(m.right === least.right || m.right + halfBand <= label / 2 + 2, `${said}: the right one wider than needed`);
    assert.ok(m.left === least.left || m.left + countAxisPx + halfBand <= label / 2 + 2, `${said}: the left one wider than needed`);
  }
  // short labels ("18:45") under wide bands need no more than the least margins
  const short = labelWidthPx('18:45', 11);
  assert.deepEqual(chartMarginsPx({ widthPx: 1220, countAxisPx: 14, firstLabelPx: short, lastLabelPx: short, buckets: 48, least }), least);
  // before the drawing's width is known: the least margins
  assert.deepEqual(chartMarginsPx({ widthPx: 0, countAxisPx: 14, firstLabelPx: label, lastLabelPx: label, buckets: 28, least }), least);
});
