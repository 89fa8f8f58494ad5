/**
 * Conversions: the raw rows of /v3/conversions with filters and paging; choosing one shows its
 * touchpoint path under the URL's model, window and exclusions and, for an order, why it was
 * credited where it was under every model ("why was this credited to X", why.ts).
 */
import { html } from 'htm/preact';
import type { ViewProps } from './props.ts';
import { useData, apiParams, rangedParams } from '../data.ts';
import { CountedNames, Filters, SOURCES } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { formatValue, label } from '../../../ui/format.ts';
import { withParams, type Route } from '../router.ts';
import { Downloads, Status } from './common.ts';
import { Why } from './why.ts';

const PAGE_SIZE = '50';
const CONVERSIONS_PARAMS = [
  'workspace', 'source', 'exclude_source', 'name', 'transaction_id', 'customer_id', 'is_new_customer', 'offset',
];

interface ConversionsAnswer {
  data: Row[];
  pagination: { offset: number; limit: number; has_more: boolean; next_offset: number | null };
}

interface NamesAnswer {
  names: { name: string; conversions: number; revenue: number; counted: boolean }[];
  conversion_names: string[];
}

/** The names the range's conversions carry, with counts; choosing one filters the rows by it. */
function Names({ route, zone }: { route: Route; zone: string }) {
  const answer = useData<NamesAnswer>('conversions/names', rangedParams(route, zone, ['workspace']));
  const d = answer.data;
  const chosen = route.params.get('name');
  if (!d) return html`<${Status} loading=${answer.loading} error=${answer.error} />`;
  return html`<section class="panel" aria-labelledby="names-title">
    <h2 id="names-title">Conversion names</h2>
    <fieldset class="chips"><legend>Filter the rows by name</legend>
      ${d.names.map((n) => html`<button type="button" class="chip" aria-pressed=${chosen === n.name ? 'true' : 'false'} data-name=${n.name}
        onClick=${() => withParams(route, { name: chosen === n.name ? null : n.name, offset: null })}>
        ${n.name} · ${formatValue(n.conversions, 'count')} · ${formatValue(n.revenue, 'money')}${n.counted ? '' : ' (not counted)'}</button>`)}
    </fieldset>
    <${CountedNames} names=${d.conversion_names} />
  </section>`;
}

interface PathAnswer {
  dt: string;
  touches: {
    started: string; session_id: string; channel: string; source: string; campaign: string; campaign_name: string;
    adgroup: string; adgroup_name: string; ad: string; ad_name: string; utm_campaign: string; weight: number | null;
  }[];
  organic_weight: number;
  attribution_model: string;
  attribution_window: number;
  exclude_source: string[];
}

/** A campaign, ad group or ad on the path: its name from the ad rows with the id on hover, else the id. */
const named = (id: string, name: string) => html`<span title=${`id ${id}`}>${name || id}</span>`;

const encodeKey = (row: Row) => [row.session_id, row.dt, row.name, row.transaction_id].map((v) => encodeURIComponent(String(v ?? ''))).join('|');

function Path({ route, zone, selected }: { route: Route; zone: string; selected: string }) {
  const [session_id, dt, name, transaction_id] = selected.split('|').map(decodeURIComponent);
  const params = apiParams(route.params, ['workspace', 'attribution_model', 'attribution_window', 'exclude_source']);
  for (const [k, v] of Object.entries({ session_id, dt, name, transaction_id })) params.set(k, v ?? '');
  const answer = useData<PathAnswer>('conversions/path', params);
  const d = answer.data;
  return html`<section class="panel" aria-labelledby="path-title">
    <div class="table-tools"><h2 id="path-title">Touchpoint path of ${name} ${transaction_id ? `#${transaction_id}` : ''} at ${dt}</h2>
      <button type="button" class="secondary" onClick=${() => withParams(route, { conversion: null })}>Close</button></div>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<p class="note">${label(d.attribution_model)}, ${d.attribution_window}-day window${d.exclude_source.length ? `, excluding ${d.exclude_source.join(', ')}` : ''}.
      ${d.organic_weight > 0 ? ' No eligible touchpoint: credited to organic.' : ''}</p>
      <ol class="path">${d.touches.length === 0 && html`<li>No sessions of this buyer in the window.</li>`}
        ${d.touches.map((t) => html`<li class=${t.weight ? 'credited' : ''}>
          <strong>${t.channel === '' ? 'untagged visit' : t.source}</strong> · ${t.started}
          ${t.campaign && html` · campaign ${named(t.campaign, t.campaign_name)}`}${t.adgroup && html` · ad group ${named(t.adgroup, t.adgroup_name)}`}${t.ad && html` · ad ${named(t.ad, t.ad_name)}`}${t.utm_campaign && html` · utm ${t.utm_campaign}`}
          <span class="credit">${t.weight !== null ? `${formatValue(t.weight, 'fraction')} of the credit`
            : t.channel === '' ? 'not a touchpoint (no channel)' : 'not eligible (excluded source)'}</span>
        </li>`)}
      </ol>`}
    ${transaction_id ? html`<${Why} route=${route} zone=${zone} transactionId=${transaction_id} />` : html`<p class="note">Without a transaction id the models cannot be compared for this conversion.</p>`}
  </section>`;
}

export function Conversions({ route, workspace }: ViewProps) {
  const p = route.params;
  // The attribution parameters of the URL shape the path panel only: the rows endpoint refuses them.
  const params = rangedParams(route, workspace.timezone, CONVERSIONS_PARAMS);
  params.set('limit', PAGE_SIZE);
  const answer = useData<ConversionsAnswer>('conversions', params);
  const d = answer.data;
  const selected = p.get('conversion');
  const columns: Column[] = [
    { key: 'dt', label: 'Time (UTC)', kind: 'text', onOpen: (row) => withParams(route, { conversion: encodeKey(row) }) },
    { key: 'name', label: 'Name', kind: 'text' },
    { key: 'transaction_id', label: 'Transaction', kind: 'text' },
    { key: 'transaction_gross_revenue', label: 'Revenue', kind: 'cents' },
    { key: 'adv_source', label: 'Session source', kind: 'text' },
    { key: 'utm_campaign', label: 'UTM campaign', kind: 'text' },
    { key: 'customer_id', label: 'Customer', kind: 'text' },
    { key: 'is_new_customer', label: 'New', kind: 'text', display: (row) => (row.is_new_customer === '1' ? 'yes' : 'no') },
  ];
  const text = (name: string, title: string) => html`<label>${title}
    <input type="search" name=${name} value=${p.get(name) ?? ''} onChange=${(e: Event) => withParams(route, { [name]: (e.target as HTMLInputElement).value, offset: null })} /></label>`;
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} />
    <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}><div class="field-group">
      <label>Session source
        <select name="source" onChange=${(e: Event) => withParams(route, { source: (e.target as HTMLSelectElement).value, offset: null })}>
          <option value="" selected=${!p.get('source')}>Any</option>
          ${SOURCES.map((s) => html`<option value=${s} selected=${p.get('source') === s}>${s}</option>`)}
        </select>
      </label>
      ${text('name', 'Conversion name')}${text('transaction_id', 'Transaction id')}
    </div></form>
    <${Names} route=${route} zone=${workspace.timezone} />
    ${selected && html`<${Path} route=${route} zone=${workspace.timezone} selected=${selected} />`}
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${d && html`<${Table} caption="Conversion rows" columns=${columns} rows=${d.data} filename="storelens-conversions.csv"
        empty="No conversions for these filters." />
      <${Downloads} what="Every conversion of these filters" kind="conversions" params=${rangedParams(route, workspace.timezone, CONVERSIONS_PARAMS.filter((k) => k !== 'offset'))}
        files=${[['CSV', { format: 'csv' }], ['NDJSON', { format: 'ndjson' }], ['Parquet', { format: 'parquet' }]]} />
      <div class="pager">
        <button type="button" class="secondary" disabled=${d.pagination.offset === 0}
          onClick=${() => withParams(route, { offset: String(Math.max(0, d.pagination.offset - d.pagination.limit)) })}>Previous page</button>
        <button type="button" class="secondary" disabled=${!d.pagination.has_more}
          onClick=${() => withParams(route, { offset: String(d.pagination.next_offset) })}>Next page</button>
      </div>`}
  `;
}
