/**
 * The customers' cohort table (GET /v3/customers rows) as a heat map: each figure's cell is shaded
 * by its value against the largest of its column, so the best cohort stands out; the value is
 * always written in the cell, and the shading is said in words under the table. The dashboard's
 * Customers view and the customers.get-ltv app both draw it.
 */
import { html } from 'htm/preact';
import { formatValue, type Kind } from './format.ts';
import { TableBox, type Row } from './table.ts';
import { LTV_DAYS } from '../kit/vocabulary.ts';

interface HeatColumn {
  label: string;
  kind: Kind;
  value: (row: Row) => unknown;
}

const KEY_COLUMNS: Record<string, HeatColumn[]> = {
  '': [],
  first_source: [{ label: 'First source', kind: 'text', value: (r) => r.first_source }],
  first_campaign: [
    { label: 'First campaign', kind: 'text', value: (r) => r.first_campaign },
    { label: 'First source', kind: 'text', value: (r) => r.first_source },
  ],
  cohort_month: [{ label: 'Cohort month', kind: 'text', value: (r) => r.cohort_month }],
};

const FIGURES: HeatColumn[] = [
  { label: 'New customers', kind: 'count', value: (r) => r.new_customers },
  { label: 'Repeat rate', kind: 'fraction', value: (r) => r.repeat_rate },
  { label: 'Days to 2nd order', kind: 'count', value: (r) => r.avg_days_to_second_order },
  ...LTV_DAYS.map((days): HeatColumn => ({ label: `LTV ${days} d`, kind: 'money', value: (r) => r[`ltv_${days}`] })),
];

/** Revenue per customer in each month since the first order, as many as the longest row has. */
function monthColumns(rows: Row[]): HeatColumn[] {
  const months = Math.max(0, ...rows.map((r) => (Array.isArray(r.revenue_by_month) ? r.revenue_by_month.length : 0)));
  return Array.from({ length: months }, (_, i): HeatColumn => ({
    label: `Month ${i}`, kind: 'money', value: (r) => (r.revenue_by_month as number[] | undefined)?.[i],
  }));
}

/** The cell's shade: the accent at up to 55 % strength, in proportion to the column's largest value. */
function shade(value: unknown, max: number): string | undefined {
  if (typeof value !== 'number' || max <= 0) return undefined;
  return `background: color-mix(in srgb, var(--accent) ${Math.round((value / max) * 55)}%, transparent)`;
}

export function CohortTable(props: { caption: string; breakdown: string | null; rows: Row[]; totals?: Row }) {
  const keys = KEY_COLUMNS[props.breakdown ?? ''] ?? [];
  const figures = [...FIGURES, ...monthColumns(props.rows)];
  const max = figures.map((c) => Math.max(0, ...props.rows.map((r) => (typeof c.value(r) === 'number' ? (c.value(r) as number) : 0))));
  return html`<div class="table-block">
    <${TableBox} caption=${props.caption}>
      <table class="heat" data-testid="cohort-table">
        <thead><tr>
          ${keys.map((c) => html`<th scope="col">${c.label}</th>`)}
          ${figures.map((c) => html`<th scope="col" class="num">${c.label}</th>`)}
        </tr></thead>
        <tbody>${props.rows.length === 0
          ? html`<tr><td colspan=${keys.length + figures.length} class="empty">No new customers in this range.</td></tr>`
          : props.rows.map((row) => html`<tr>
              ${keys.map((c) => html`<th scope="row">${formatValue(c.value(row), 'text')}</th>`)}
              ${figures.map((c, i) => html`<td class="num" style=${shade(c.value(row), max[i]!)}>${formatValue(c.value(row), c.kind)}</td>`)}
            </tr>`)}</tbody>
        ${props.totals && html`<tfoot><tr>
          ${keys.length > 0 && html`<th scope="row" colspan=${keys.length}>All new customers</th>`}
          ${figures.map((c) => html`<td class="num">${formatValue(c.value(props.totals!), c.kind)}</td>`)}
        </tr></tfoot>`}
      </table>
    <//>
    <p class="note">Shading: the darker a cell, the higher its value against the rest of its column. – means none: no repeat order, or no customer
      whose first order is that many days old.</p>
  </div>`;
}
