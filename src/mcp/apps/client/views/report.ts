/**
 * analytics.query's result as the dashboard shows a report: the totals as tiles (with their change
 * when compare_to was asked), a chart when the rows are periods, and the rows as the report table.
 */
import { html } from 'htm/preact';
import { Chart } from '../../../../ui/chart.ts';
import { label, METRIC_KINDS } from '../../../../ui/format.ts';
import { Table, type Column, type Row } from '../../../../ui/table.ts';
import { Kpi } from '../../../../ui/kpi.ts';
import { keyColumns } from '../../../../ui/report-columns.ts';
import { dayOf, type Period } from './period.ts';
import { NAMED_BREAKDOWNS } from '../../../../kit/vocabulary.ts';

export interface QueryResult {
  rows: Row[];
  totals: Row & { previous?: Row; change?: Row };
  comparison?: { compare_to: string } & Period;
  attribution: { model: string; window: number };
  settings_applied: { timezone: string };
  pagination: Period & { total_rows: number };
}

/** Members of a row that are not its keys. */
const NOT_KEYS = new Set(['date', 'previous', 'change']);
/** The breakdowns that carry their parents (source, campaign ...) beside them, deepest first. */
const NESTED: string[] = [...NAMED_BREAKDOWNS].reverse();

/** The row's breakdown: the one key member that is not a period, a name or a metric. */
function breakdownOf(rows: Row[], metrics: string[]): string | undefined {
  const keys = Object.keys(rows[0] ?? {}).filter((k) => !NOT_KEYS.has(k) && !metrics.includes(k) && !k.endsWith('_name'));
  return NESTED.find((k) => keys.includes(k)) ?? keys[0];
}

export function Report({ data }: { data: QueryResult }) {
  const metrics = Object.keys(data.totals).filter((k) => !NOT_KEYS.has(k));
  const compared = data.comparison !== undefined;
  const breakdown = breakdownOf(data.rows, metrics);
  const periods = data.rows.length > 0 && data.rows.every((r) => typeof r.date === 'string');
  const zone = data.settings_applied.timezone;
  // Each metric's change beside it as `<metric>_change`, the member a table column reads.
  const withChanges = (r: Row) => ({ ...r, ...Object.fromEntries(metrics.map((m) => [`${m}_change`, (r.change as Row | undefined)?.[m] ?? null])) });
  const columns: Column[] = [
    ...(periods ? [{ key: 'date', label: 'Date', kind: 'text' as const }] : []),
    ...(breakdown ? keyColumns(breakdown) : []),
    ...metrics.flatMap((m) => [
      { key: m, label: label(m), kind: METRIC_KINDS[m] ?? 'count' },
      ...(compared ? [{ key: `${m}_change`, label: `${label(m)} change`, kind: 'fraction' as const }] : []),
    ]),
  ];
  const range = `${dayOf(data.pagination.start_date, zone)} to ${dayOf(data.pagination.end_date, zone)} (${zone})`;
  const versus = data.comparison ? `, compared with ${dayOf(data.comparison.start_date, zone)} to ${dayOf(data.comparison.end_date, zone)}` : '';
  return html`
    <p class="note">${range}${versus} · ${label(data.attribution.model)} attribution, ${data.attribution.window}-day window</p>
    <section aria-label="Totals" class="kpis">
      ${metrics.map((m) => html`<${Kpi} metric=${m} value=${data.totals[m] as number | null} previous=${compared ? ((data.totals.previous?.[m] ?? null) as number | null) : undefined} />`)}
    </section>
    ${periods && !breakdown && html`<${Chart} title=${metrics.slice(0, 2).map(label).join(' and ')} x=${data.rows.map((r) => String(r.date))}
      series=${metrics.slice(0, 2).map((m) => ({ label: label(m), values: data.rows.map((r) => r[m] as number | null), kind: METRIC_KINDS[m] ?? 'count' }))} />`}
    ${data.rows.length > 0 && html`<${Table} caption=${breakdown ? `By ${label(breakdown).toLowerCase()}` : 'By period'} columns=${columns} rows=${data.rows.map(withChanges)} totals=${withChanges(data.totals)} />`}
    ${data.pagination.total_rows > data.rows.length && html`<p class="note">${data.rows.length} of ${data.pagination.total_rows} rows</p>`}`;
}
