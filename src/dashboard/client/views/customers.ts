/** Customers: the range's new customers by first source, first campaign or cohort month, as a heat map, beside the returning ones. */
import { html } from 'htm/preact';
import type { ViewProps } from './props.ts';
import { useData, rangedParams } from '../data.ts';
import { Filters, Select, WINDOWS } from '../filters.ts';
import { CohortTable } from '../../../ui/cohort-table.ts';
import type { Row } from '../../../ui/table.ts';
import { Kpi } from '../../../ui/kpi.ts';
import { Status } from './common.ts';
import { COHORT_BREAKDOWN_LABELS, COHORT_BREAKDOWNS } from '../../../kit/vocabulary.ts';

interface CustomersAnswer {
  data: Row[];
  totals: Row;
  breakdown: string | null;
  attribution_window: number;
  conversion_names: string[];
  range: { start_date: string; end_date: string };
}

const BREAKDOWNS: string[] = COHORT_BREAKDOWNS;
const BREAKDOWN_LABELS: Record<string, string> = COHORT_BREAKDOWN_LABELS;
const TILES = ['customers', 'new_customers', 'returning_customers', 'revenue'];

export function Customers({ route, workspace }: ViewProps) {
  const params = rangedParams(route, workspace.timezone, ['workspace', 'attribution_window']);
  params.set('breakdown', route.params.get('breakdown') ?? 'first_source');
  const answer = useData<CustomersAnswer>('customers', params);
  const d = answer.data;
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} attribution=${false} />
    <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
      <div class="field-group">
        <${Select} route=${route} name="breakdown" text="Rows by" options=${BREAKDOWNS} value=${params.get('breakdown')!}
          optionLabel=${(v: string) => BREAKDOWN_LABELS[v]!} />
        <${Select} route=${route} name="attribution_window" text="First-click window (days)" options=${WINDOWS}
          value=${route.params.get('attribution_window') ?? String(d?.attribution_window ?? 7)} />
      </div>
    </form>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`
      <div class="kpis">${TILES.map((m) => html`<${Kpi} metric=${m} value=${d.totals[m] as number} />`)}</div>
      <${CohortTable} caption=${`New customers from ${d.range.start_date} to ${d.range.end_date}`} breakdown=${d.breakdown} rows=${d.data} totals=${d.totals} />
      <p class="note" data-testid="counted-names">Orders are the sales among the conversions named ${d.conversion_names.join(', ')}${
        d.conversion_names.includes('*') ? ' (every name)' : ''}.</p>
      <p class="note">New customers placed their first order ever in the range; returning customers ordered in it after an earlier first order.
        The first source is the first click of the first order. LTV N d: revenue per customer of the orders placed within N days of the first,
        over the customers whose first order is at least N days old.</p>`}
  `;
}
