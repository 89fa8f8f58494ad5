/** Storelens vs shop: per day, the shop's orders beside what the report books, every difference named. */
import { html } from 'htm/preact';
import type { ViewProps } from './props.ts';
import { useData, rangedParams } from '../data.ts';
import { CountedNames, Filters } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue } from '../../../ui/format.ts';
import { Status } from './common.ts';

interface BooksAnswer {
  data: Row[];
  totals: Row;
  range: { start_date: string; end_date: string };
  settings_applied: { conversion_names: string[] };
}

const COLUMNS: Column[] = [
  { key: 'date', label: 'Day', kind: 'text' },
  { key: 'shop_orders', label: 'Shop orders', kind: 'count' },
  { key: 'shop_revenue', label: 'Shop revenue', kind: 'money' },
  { key: 'cancelled_orders', label: 'Cancelled', kind: 'count' },
  { key: 'cancelled_revenue', label: 'Cancelled revenue', kind: 'money' },
  { key: 'test_orders', label: 'Test orders', kind: 'count' },
  { key: 'refunds', label: 'Refunds', kind: 'money' },
  { key: 'matched_orders', label: 'Matched', kind: 'count' },
  { key: 'matched_revenue', label: 'Matched revenue', kind: 'money' },
  { key: 'unmatched_orders', label: 'Unmatched', kind: 'count' },
  { key: 'unmatched_revenue', label: 'Unmatched revenue', kind: 'money' },
  { key: 'pixel_only_conversions', label: 'Pixel only', kind: 'count' },
  { key: 'pixel_only_revenue', label: 'Pixel-only revenue', kind: 'money' },
  { key: 'excluded_orders', label: 'Excluded ids', kind: 'count' },
  { key: 'report_conversions', label: 'Storelens conversions', kind: 'count' },
  { key: 'report_revenue', label: 'Storelens revenue', kind: 'money' },
  { key: 'unexplained_revenue', label: 'Unexplained', kind: 'money' },
];

export function Books({ route, workspace }: ViewProps) {
  const answer = useData<BooksAnswer>('reconciliation', rangedParams(route, workspace.timezone, ['workspace']));
  const d = answer.data;
  const unexplained = Number(d?.totals.unexplained_revenue ?? 0);
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} attribution=${false} />
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<p class="note" data-testid="books-verdict">
        ${unexplained === 0
          ? `Every difference between the shop and Storelens from ${d.range.start_date} to ${d.range.end_date} is named below.`
          : `${formatValue(unexplained, 'money')} of Storelens revenue from ${d.range.start_date} to ${d.range.end_date} is not explained by the named differences.`}
      </p>
      <${CountedNames} names=${d.settings_applied.conversion_names} />
      <${Table} caption="Storelens vs shop by day" columns=${COLUMNS} rows=${d.data} totals=${d.totals} filename="storelens-vs-shop.csv" />
      <p class="note">Shop orders count cancelled ones, shop revenue does not; unmatched orders count as unattributed only when the settings include them.
        Orders stand beside purchases only: a lead or a sign-up is never a pixel-only order.
        How to hold these figures against your shop's own reports: <a href="/docs/books.md">docs/books.md</a>.</p>`}
  `;
}
