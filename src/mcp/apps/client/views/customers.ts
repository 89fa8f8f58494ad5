/** customers.get-ltv's result: the dashboard's cohort table, a heat map of each figure per row, with the totals. */
import { html } from 'htm/preact';
import { formatValue } from '../../../../ui/format.ts';
import { CohortTable } from '../../../../ui/cohort-table.ts';
import type { Row } from '../../../../ui/table.ts';

export interface CustomersResult {
  customers: { date_from: string; date_to: string; timezone: string; breakdown: string | null; attribution_window: number; rows: Row[]; totals: Row };
}

export function Customers({ data }: { data: CustomersResult }) {
  const c = data.customers;
  const t = c.totals;
  return html`
    <p class="note">${`${c.date_from} to ${c.date_to} (${c.timezone}) · ${formatValue(t.customers, 'count')} customers: ` +
      `${formatValue(t.new_customers, 'count')} new, ${formatValue(t.returning_customers, 'count')} returning, ${formatValue(t.revenue, 'money')} revenue`}</p>
    <${CohortTable} caption="New customers" breakdown=${c.breakdown} rows=${c.rows} totals=${t} />`;
}
