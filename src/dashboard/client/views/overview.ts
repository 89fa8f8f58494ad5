/** Overview: the headline metrics with their change against the previous period, and one chart. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { useData, apiParams, rangedParams } from '../data.ts';
import { Filters, type Applied } from '../filters.ts';
import { Chart } from '../../../ui/chart.ts';
import { instantOf, label, localTime, METRIC_KINDS } from '../../../ui/format.ts';
import { Kpi } from '../../../ui/kpi.ts';
import { Downloads, FILTER_PARAMS, Status } from './common.ts';

interface OverviewAnswer {
  interval: string;
  metrics: string[];
  totals: Record<string, number | null>;
  previous: Record<string, number | null>;
  series: Record<string, number | string | null>[];
  range: { start_date: string; end_date: string };
  previous_range: { start_date: string; end_date: string };
  /** The range holds today: it is compared up to the same time of day, and metrics built on whole days are not compared. */
  partial: boolean;
  settings_applied: Applied & { timezone: string };
}

/** Which days the tiles cover and what they are compared with, on the workspace's calendar. */
function comparison(d: OverviewAnswer): string {
  const zone = d.settings_applied.timezone;
  const at = (utc: string) => localTime(instantOf(utc), zone);
  const days = (r: { start_date: string; end_date: string }) => {
    const [first, last] = [at(r.start_date).date, at(r.end_date).date];
    return first === last ? first : `${first} to ${last}`;
  };
  if (!d.partial) return `${days(d.range)}, compared with ${days(d.previous_range)} (${zone}).`;
  // The comparison ends at a whole minute: end_date is the last second before it.
  const until = localTime(instantOf(d.previous_range.end_date) + 1000, zone).time;
  return `${days(d.range)} until ${until}, compared with ${days(d.previous_range)} until ${until} (${zone}); spend comes by whole day, so it and the figures built on it are not compared.`;
}

export function Overview({ route, workspace }: ViewProps) {
  const params = rangedParams(route, workspace.timezone, [...FILTER_PARAMS, 'interval']);
  const answer = useData<OverviewAnswer>('overview', params);
  const [metric, setMetric] = useState('revenue');
  const d = answer.data;
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} applied=${d?.settings_applied} />
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<section aria-label="Headline metrics" class="kpis">
        ${d.metrics.map((m) => html`<${Kpi} metric=${m} value=${d.totals[m]} previous=${d.previous[m]} />`)}
      </section>
      <p class="note" data-testid="comparison">${comparison(d)}</p>
      <div class="chart-tools">
        <label>Chart metric
          <select name="chart_metric" onChange=${(e: Event) => setMetric((e.target as HTMLSelectElement).value)}>
            ${d.metrics.map((m) => html`<option value=${m} selected=${m === metric}>${label(m)}</option>`)}
          </select>
        </label>
        <span class="note">by ${d.interval}</span>
      </div>
      <${Chart} title=${`${label(metric)} by ${d.interval}`} x=${d.series.map((r) => String(r.date))}
        series=${[{ label: label(metric), values: d.series.map((r) => r[metric] as number | null), kind: METRIC_KINDS[metric] ?? 'count' }]} />
      <${Downloads} what="Marketing-mix-model file (revenue and ad spend per source, for Meridian, Robyn or PyMC-Marketing)" kind="mmm"
        params=${rangedParams(route, workspace.timezone, ['workspace'])} files=${[['Daily CSV', {}], ['Weekly CSV', { granularity: 'week' }]]} />`}
  `;
}
