/** Overview: the headline metrics with their change against the previous period, and one chart. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { useData, apiParams } from '../data.ts';
import { Filters, type Applied } from '../filters.ts';
import { Chart } from '../chart.ts';
import { label, METRIC_KINDS } from '../format.ts';
import { Downloads, FILTER_PARAMS, Kpi, Status } from './common.ts';

interface OverviewAnswer {
  interval: string;
  metrics: string[];
  totals: Record<string, number | null>;
  previous: Record<string, number | null>;
  series: Record<string, number | string | null>[];
  range: { start_date: string; end_date: string };
  previous_range: { start_date: string; end_date: string };
  settings_applied: Applied;
}

export function Overview({ route }: ViewProps) {
  const params = apiParams(route.params, [...FILTER_PARAMS, 'interval']);
  const answer = useData<OverviewAnswer>('overview', params);
  const [metric, setMetric] = useState('revenue');
  const d = answer.data;
  return html`
    <${Filters} route=${route} applied=${d?.settings_applied} />
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<section aria-label="Headline metrics" class="kpis">
        ${d.metrics.map((m) => html`<${Kpi} metric=${m} value=${d.totals[m]} previous=${d.previous[m]} />`)}
      </section>
      <p class="note">${`${d.range.start_date.slice(0, 10)} to ${d.range.end_date.slice(0, 10)}, compared with ${d.previous_range.start_date.slice(0, 10)} to ${d.previous_range.end_date.slice(0, 10)}.`}</p>
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
        params=${apiParams(route.params, ['workspace', 'start_date', 'end_date'])} files=${[['Daily CSV', {}], ['Weekly CSV', { granularity: 'week' }]]} />`}
  `;
}
