/** Profit: costs, profit levels, margins and net ROAS for the range, by source and over time. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { useData, rangedParams } from '../data.ts';
import { Filters, type Applied } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { Chart } from '../../../ui/chart.ts';
import { label, METRIC_KINDS } from '../../../ui/format.ts';
import { Kpi } from '../../../ui/kpi.ts';
import { FILTER_PARAMS, Status } from './common.ts';

interface ProfitAnswer {
  interval: string;
  metrics: string[];
  totals: Record<string, number | null>;
  by_source: Row[];
  series: Row[];
  settings_applied?: Applied;
}

export function Profit({ route, workspace }: ViewProps) {
  const [metric, setMetric] = useState('net_profit');
  const answer = useData<ProfitAnswer>(workspace.profit ? 'profit' : null, rangedParams(route, workspace.timezone, [...FILTER_PARAMS, 'interval']));
  if (!workspace.profit) return html`<p class="error" role="alert">Your role in this workspace does not include profit metrics.</p>`;
  const d = answer.data;
  const columns: Column[] = [{ key: 'source', label: 'Source', kind: 'text' }, ...(d?.metrics ?? []).map((m) => ({ key: m, label: label(m), kind: METRIC_KINDS[m] ?? 'money' }))];
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} applied=${d?.settings_applied} />
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<section aria-label="Profit totals" class="kpis">
        ${d.metrics.map((m) => html`<${Kpi} metric=${m} value=${d.totals[m]} />`)}
      </section>
      <p class="note">Net profit in the totals also subtracts the custom expenses of the range; source rows carry none.</p>
      <div class="chart-tools"><label>Chart metric
        <select name="chart_metric" onChange=${(e: Event) => setMetric((e.target as HTMLSelectElement).value)}>
          ${d.metrics.map((m) => html`<option value=${m} selected=${m === metric}>${label(m)}</option>`)}
        </select></label></div>
      <${Chart} title=${`${label(metric)} by ${d.interval}`} x=${d.series.map((r) => String(r.date))}
        series=${[{ label: label(metric), values: d.series.map((r) => r[metric] as number | null), kind: METRIC_KINDS[metric] ?? 'money' }]} />
      <${Table} caption="Profit by source" columns=${columns} rows=${d.by_source} totals=${d.totals} filename="storelens-profit-by-source.csv" />`}
  `;
}
