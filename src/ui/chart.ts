/** A time-series chart on uPlot (canvas; a few kilobytes; fast with thousands of points). */
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatValue, type Kind } from './format.ts';

export interface Series {
  label: string;
  values: (number | null)[];
  kind: Kind;
}

const COLORS = ['#2563eb', '#16a34a', '#dc2626', '#9333ea'];
const DAY_STEPS = [1, 2, 3, 7, 14, 28, 91, 182, 364];
const DAY_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * `x` holds bucket starts (`YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, UTC). Series after the first use a
 * second axis, unless `oneAxis` (series of one unit, to be read against each other).
 */
export function Chart(props: { title: string; x: string[]; series: Series[]; bars?: boolean; oneAxis?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    // Axis text and grid take the page's colours (--ink, --line), so the chart reads in a dark theme too.
    const css = getComputedStyle(el);
    const [ink, line] = [css.getPropertyValue('--ink').trim(), css.getPropertyValue('--line').trim()];
    const axis = { stroke: ink, grid: { stroke: line }, ticks: { stroke: line } };
    const xs = props.x.map((d) => Date.parse(`${d.length === 10 ? `${d}T00:00:00` : d.replace(' ', 'T')}Z`) / 1000);
    // Buckets of whole days (or weeks, months) get ticks on whole days labelled by date: uPlot
    // would otherwise split a short range into hours (12am, 8am, 4pm) that no bucket has.
    const byDay = props.x.every((d) => d.length === 10);
    const dayAxis = byDay
      ? { incrs: DAY_STEPS.map((n) => n * 86_400), values: (_u: uPlot, ticks: number[]) => ticks.map((t) => DAY_LABEL.format(new Date(t * 1000))) }
      : {};
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height: 240,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [
        { ...axis, ...dayAxis },
        { ...axis, values: (_u, ticks) => ticks.map((t) => formatValue(t, props.series[0]!.kind)), size: 90 },
        ...(props.series.length > 1 && !props.oneAxis
          ? [{ ...axis, side: 1, scale: 'y2', grid: { show: false }, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => formatValue(t, props.series[1]!.kind)), size: 90 }]
          : []),
      ],
      series: [
        byDay ? { label: 'Date', value: (_u: uPlot, t: number | null) => (t === null ? '--' : DAY_LABEL.format(new Date(t * 1000))) } : {},
        ...props.series.map((s, i) => ({
          label: s.label,
          stroke: COLORS[i % COLORS.length],
          width: 2,
          scale: i === 0 || props.oneAxis ? 'y' : 'y2',
          value: (_u: uPlot, v: number | null) => formatValue(v, s.kind),
          ...(props.bars ? { paths: uPlot.paths.bars!({ size: [0.6, 40] }), fill: `${COLORS[i % COLORS.length]}55` } : {}),
        })),
      ],
    };
    const plot = new uPlot(opts, [xs, ...props.series.map((s) => s.values)] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [JSON.stringify([props.x, props.series, props.oneAxis])]);
  const summary = `${props.title}: ${props.series.map((s) => s.label).join(', ')} over ${props.x.length} points`;
  return html`<figure class="chart"><figcaption>${props.title}</figcaption><div ref=${box} role="img" aria-label=${summary}></div></figure>`;
}
