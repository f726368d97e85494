'use client';
// The filtered runs over time (recharts): runs started per bucket, stacked by status, with a
// tooltip per bucket and keyboard access (recharts' accessibility layer); clicking a bar narrows
// the list to that bucket's time. The p50/p95 duration of the runs that ended sits above it.
// Loaded in the browser only (RunsChartPane), after the list has painted.
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis, type DefaultLegendContentProps } from 'recharts';
import type { RunStatsView } from '@/lib/views';
import { RUN_STATUS_WORDS } from '@/lib/views';
import { CHART_HEIGHT_PX, bucketLabel, chartRows, chartMarginsPx, labelWidthPx } from './chart-data';

/** the status colours of globals.css, as SVG fills (a presentation attribute takes no var()) */
const COLOURS: Record<(typeof RUN_STATUS_WORDS)[number], string> = {
  completed: '#1f8a4c',
  failed: '#c62f2f',
  aborted: '#b26a00',
  running: '#2f6fd6',
  queued: '#9aa3b2',
};

type Props = { stats: RunStatsView; onPickBucket(from: number, to: number): void };

const LEGEND_ICON_PX = 9;
const AXIS_FONT_PX = 11;
/** the count axis' room beside its labels: recharts' tick line (6 px, drawn or not) and gap (2 px) */
const COUNT_AXIS_GAP_PX = 8;

/**
 * The legend as recharts draws it (a swatch, then the status in its colour), but its swatches are
 * hidden from the accessibility tree: recharts names each one ("aborted legend icon"), which a
 * screen reader read out before every status. The words stay.
 */
function StatusLegend({ payload }: DefaultLegendContentProps) {
  return (
    <ul className="recharts-default-legend" style={{ padding: 0, margin: 0, textAlign: 'center' }}>
      {(payload ?? []).map((entry) => (
        <li key={entry.value} className="recharts-legend-item" style={{ display: 'inline-block', marginRight: 10, whiteSpace: 'nowrap' }}>
          <svg width={LEGEND_ICON_PX} height={LEGEND_ICON_PX} viewBox="0 0 32 32" aria-hidden="true" style={{ display: 'inline-block', verticalAlign: 'middle', marginRight: 4 }}>
            <path d="M0,4h32v24h-32z" fill={entry.color} />
          </svg>
          <span className="recharts-legend-item-text" style={{ color: entry.color }}>
            {entry.value}
          </span>
        </li>
      ))}
    </ul>
  );
}

export default function RunsChart({ stats, onPickBucket }: Props) {
  const rows = chartRows(stats);
  const shown = RUN_STATUS_WORDS.filter((s) => stats.byStatus[s] > 0);
  // the drawing's width, to keep the first and the newest labels' room beside the bars (chartMarginsPx)
  const [width, setWidth] = useState(0);
  const most = Math.max(0, ...rows.map((r) => RUN_STATUS_WORDS.reduce((n, s) => n + r[s], 0)));
  const margin = chartMarginsPx({
    widthPx: width,
    // the count axis on the narrow side (digits of half an em): the first label's room is then never overrated
    countAxisPx: COUNT_AXIS_GAP_PX + Math.floor(String(most).length * AXIS_FONT_PX * 0.5),
    firstLabelPx: rows.length ? labelWidthPx(rows[0].label, AXIS_FONT_PX) : 0,
    lastLabelPx: rows.length ? labelWidthPx(rows[rows.length - 1].label, AXIS_FONT_PX) : 0,
    buckets: rows.length,
    least: { left: 2, right: 8 },
  });
  return (
    <ResponsiveContainer width="100%" height={CHART_HEIGHT_PX} onResize={(w) => setWidth(w)}>
      {/* the accessibility layer makes the chart a focusable `application`: it is named like every control */}
      <BarChart data={rows} margin={{ top: 6, bottom: 0, ...margin }} barCategoryGap={1} aria-label="Bar chart of the filtered runs per time bucket (← and → move between bars)">
        <CartesianGrid vertical={false} stroke="#e6e9ee" />
        {/* every nth bucket labelled, counted back from the newest (which always is): `preserveStartEnd` labelled
            every nth from the first and then the last wherever it fell, dropping the label due before it */}
        <XAxis dataKey="label" tick={{ fontSize: AXIS_FONT_PX, fill: '#6b7484' }} interval="equidistantPreserveEnd" minTickGap={28} tickLine={false} />
        {/* as wide as its widest count label (recharts measures them): a fixed width cut the first digit of
            "120" off at the drawing's edge, and would leave one-digit counts a needless margin */}
        <YAxis allowDecimals={false} tick={{ fontSize: AXIS_FONT_PX, fill: '#6b7484' }} tickLine={false} axisLine={false} width="auto" />
        <Tooltip
          cursor={{ fill: 'rgba(58, 91, 217, 0.08)' }}
          labelFormatter={(_, payload) => {
            const start = (payload?.[0]?.payload as { start?: number } | undefined)?.start;
            return start === undefined ? '' : bucketLabel(start, stats.bucketMs, true);
          }}
          contentStyle={{ fontSize: 12, borderRadius: 6 }}
        />
        <Legend iconSize={LEGEND_ICON_PX} wrapperStyle={{ fontSize: 12 }} content={StatusLegend} />
        {shown.map((s) => (
          <Bar
            key={s}
            dataKey={s}
            name={s}
            stackId="runs"
            fill={COLOURS[s]}
            isAnimationActive={false}
            cursor="pointer"
            onClick={(d: { payload?: { start?: number } }) => {
              const start = d.payload?.start;
              if (start !== undefined) onPickBucket(start, start + stats.bucketMs);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
