/**
 * reconciliation.get-data's result: the shop's revenue and the report's per day on one axis, and
 * the days as a table with each difference in its own column and the totals.
 */
import { html } from 'htm/preact';
import { Chart } from '../../../../ui/chart.ts';
import { formatMoney } from '../../../../ui/format.ts';
import { Table, type Column, type Row } from '../../../../ui/table.ts';

export interface ReconciliationResult {
  reconciliation: { date_from: string; date_to: string; timezone: string; days: Row[]; totals: Row };
}

const COLUMNS: Column[] = [
  { key: 'date', label: 'Date', kind: 'text' },
  { key: 'shop_orders', label: 'Shop orders', kind: 'count' },
  { key: 'shop_revenue', label: 'Shop revenue', kind: 'money' },
  { key: 'cancelled_revenue', label: 'Cancelled', kind: 'money' },
  { key: 'test_orders', label: 'Test orders', kind: 'count' },
  { key: 'refunds', label: 'Refunds', kind: 'money' },
  { key: 'unmatched_revenue', label: 'Unmatched', kind: 'money' },
  { key: 'pixel_only_revenue', label: 'Pixel only', kind: 'money' },
  { key: 'excluded_orders', label: 'Excluded orders', kind: 'count' },
  { key: 'report_conversions', label: 'Report conversions', kind: 'share' },
  { key: 'report_revenue', label: 'Report revenue', kind: 'money' },
  { key: 'unexplained_revenue', label: 'Unexplained', kind: 'money' },
];

export function Reconciliation({ data }: { data: ReconciliationResult }) {
  const r = data.reconciliation;
  const unexplained = Number(r.totals.unexplained_revenue ?? 0);
  const revenue = (key: string, label: string) => ({ label, values: r.days.map((d) => d[key] as number | null), kind: 'money' as const });
  return html`
    <p class="note">${r.date_from} to ${r.date_to} (${r.timezone}) · ${unexplained === 0
      ? 'the books agree: every difference between the shop and the report is named'
      : `${formatMoney(unexplained)} of the report's revenue is not explained by the named differences`}</p>
    ${r.days.length > 0 && html`<${Chart} title="Shop revenue and report revenue" x=${r.days.map((d) => String(d.date))} oneAxis=${true}
      series=${[revenue('shop_revenue', 'Shop revenue'), revenue('report_revenue', 'Report revenue')]} />`}
    <${Table} caption="Shop and report by day" columns=${COLUMNS} rows=${r.days} totals=${{ date: 'Total', ...r.totals }} />`;
}
