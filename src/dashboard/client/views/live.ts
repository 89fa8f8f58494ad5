/** Live: the last 30 minutes of pageviews and conversions, polled every 5 seconds. */
import { html } from 'htm/preact';
import { useEffect } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { useData, apiParams } from '../data.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { Chart } from '../../../ui/chart.ts';
import { formatValue } from '../../../ui/format.ts';
import { Kpi } from '../../../ui/kpi.ts';
import { Status } from './common.ts';

interface LiveAnswer {
  now: string;
  minutes: { minute: string; pageviews: number; conversions: number; revenue_cents: number }[];
  recent: Row[];
}

export function Live({ route }: ViewProps) {
  const answer = useData<LiveAnswer>('live', apiParams(route.params, ['workspace']));
  useEffect(() => {
    const timer = setInterval(() => answer.reload(), 5000);
    return () => clearInterval(timer);
  }, [route.params.get('workspace')]);
  const d = answer.data;
  const sum = (k: 'pageviews' | 'conversions' | 'revenue_cents') => (d?.minutes ?? []).reduce((a, m) => a + Number(m[k]), 0);
  const columns: Column[] = [
    { key: 'dt', label: 'Time (UTC)', kind: 'text' },
    { key: 'kind', label: 'Kind', kind: 'text' },
    { key: 'name', label: 'Name', kind: 'text' },
    { key: 'source', label: 'Source', kind: 'text' },
    { key: 'pathname', label: 'Page', kind: 'text' },
    { key: 'revenue_cents', label: 'Revenue', kind: 'cents', display: (row) => (row.kind === 'conversion' ? formatValue(row.revenue_cents, 'cents') : '') },
  ];
  return html`
    <p class="note" aria-live="polite">Last 30 minutes${d ? `, updated ${d.now.slice(11, 19)} UTC` : ''}.</p>
    ${answer.error && html`<${Status} loading=${false} error=${answer.error} />`}
    ${!d && html`<${Status} loading=${answer.loading} error=${null} />`}
    ${d && html`<section aria-label="Last 30 minutes" class="kpis">
        <${Kpi} metric="pageviews" value=${sum('pageviews')} />
        <${Kpi} metric="conversions" value=${sum('conversions')} />
        <${Kpi} metric="revenue" value=${sum('revenue_cents') / 100} />
      </section>
      <${Chart} title="Pageviews and conversions per minute" bars=${true} x=${d.minutes.map((m) => m.minute)}
        series=${[
          { label: 'Pageviews', values: d.minutes.map((m) => Number(m.pageviews)), kind: 'count' },
          { label: 'Conversions', values: d.minutes.map((m) => Number(m.conversions)), kind: 'count' },
        ]} />
      <${Table} caption="As they arrive" columns=${columns} rows=${d.recent} filename="storelens-live.csv" empty="Nothing arrived in the last 30 minutes." />`}
  `;
}
