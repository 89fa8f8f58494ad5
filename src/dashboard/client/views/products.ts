/** Products: what sold in the range, per product and variant, and to the buyers of which source (the report's attribution). */
import { html } from 'htm/preact';
import type { ViewProps } from './props.ts';
import { useData, rangedParams } from '../data.ts';
import { Filters, SOURCES, Select, type Applied } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue, label } from '../../../ui/format.ts';
import { Kpi } from '../../../ui/kpi.ts';
import { FILTER_PARAMS, Status } from './common.ts';

interface SourceSales {
  source: string;
  units: number;
  revenue: number;
  orders: number;
}

interface ProductsAnswer {
  products: (Row & { sources: SourceSales[] })[];
  totals: { units: number; revenue: number; orders: number };
  settings_applied: Applied & { attribution_model: string; attribution_window: number };
}

const bySource = (row: Row) =>
  (row.sources as SourceSales[]).map((s) => `${label(s.source)} ${formatValue(s.revenue, 'money')} (${formatValue(s.units, 'share')})`).join(', ');

const COLUMNS: Column[] = [
  { key: 'title', label: 'Product', kind: 'text' },
  { key: 'variant_id', label: 'Variant', kind: 'text' },
  { key: 'sku', label: 'SKU', kind: 'text' },
  { key: 'units', label: 'Units', kind: 'share' },
  { key: 'revenue', label: 'Revenue', kind: 'money' },
  { key: 'orders', label: 'Orders', kind: 'share' },
  { key: 'sources', label: 'By source: revenue (units)', kind: 'text', display: bySource, wrap: true },
];

export function Products({ route, workspace }: ViewProps) {
  const answer = useData<ProductsAnswer>('products', rangedParams(route, workspace.timezone, [...FILTER_PARAMS, 'campaign']));
  const d = answer.data;
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} applied=${d?.settings_applied} />
    <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
      <${Select} route=${route} name="source" text="Buyers credited to" options=${['', ...SOURCES]}
        value=${route.params.get('source') ?? ''} optionLabel=${(s: string) => (s ? label(s) : 'Every source')} />
    </form>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<section aria-label="Product totals" class="kpis">
        ${(['units', 'revenue', 'orders'] as const).map((m) => html`<${Kpi} metric=${m} value=${d.totals[m]} />`)}
      </section>
      <p class="note">Credited under ${label(d.settings_applied.attribution_model)} attribution over ${d.settings_applied.attribution_window} days:
        a split order gives each source its share of the units. Revenue is the lines' price × quantity, before order discounts, tax and shipping.
        Cancelled, voided, test and pending orders are left out.</p>
      <p class="note" data-testid="revenue-basis">So this revenue differs from the overview's and the attribution report's for the same days: theirs is
        each order's total after the revenue settings. Orders here are the credited sales that list these products, where the overview counts
        every conversion of the counted names (docs: attribution, "Products").</p>
      <${Table} caption="Products sold" columns=${COLUMNS} rows=${d.products} totals=${d.totals} filename="storelens-products.csv" />`}
  `;
}
