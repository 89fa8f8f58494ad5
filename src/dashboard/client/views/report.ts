/**
 * Attribution (/report): the /v3/report table for the URL's parameters, with drill-down
 * source -> campaign -> ad group -> ad (each level adds the row's key as a filter), every model
 * side by side (`compare=1`), and exclude-source chips. Under data_driven the table adds what each
 * channel caused (incremental conversions, iROAS) beside ROAS, with one line saying what they are.
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import type { ViewProps } from './props.ts';
import { useData, rangedParams } from '../data.ts';
import { Filters, MODELS, type Applied } from '../filters.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { keyColumns } from '../../../ui/report-columns.ts';
import { label, METRIC_KINDS, withName } from '../../../ui/format.ts';
import { withParams, type Route } from '../router.ts';
import { FILTER_PARAMS, Status, shownCosts } from './common.ts';
import { BREAKDOWNS, METRIC_NAMES, PROFIT_METRICS as NEEDS_PROFIT, drillBelow } from '../../../kit/vocabulary.ts';

const BASE_METRICS = ['spend', 'revenue', 'roas', 'conversions', 'cpa', 'sessions', 'cr', 'new_customers'];
const PROFIT_METRICS = ['net_profit', 'net_roas'];
/** What data_driven adds beside ROAS: the conversions a channel caused and their revenue per unit of spend. */
const INCREMENTAL = ['incremental_conversions', 'iroas'];
const PROFIT_ONLY = new Set<string>(NEEDS_PROFIT);

interface ReportAnswer {
  data: Row[];
  totals: Row;
  pagination: { offset: number; limit: number; has_more: boolean; next_offset: number | null; total_rows: number };
  settings_applied: Applied;
  /** The names of the campaign and ad group the drill-down stands in ('' when no ad row names them). */
  drill_names: { campaign?: string; adgroup?: string };
}

interface CompareAnswer {
  models: { model: string; data: Row[]; totals: Row }[];
}

function Breadcrumbs({ route, names }: { route: Route; names: ReportAnswer['drill_names'] }) {
  const p = route.params;
  const steps: { text: string; changes: Record<string, string | null> }[] = [
    { text: 'All sources', changes: { breakdown: 'source', source: null, campaign: null, adgroup: null } },
    ...(p.get('source') ? [{ text: `Source ${p.get('source')}`, changes: { breakdown: 'campaign', campaign: null, adgroup: null } }] : []),
    ...(p.get('campaign') ? [{ text: `Campaign ${withName(p.get('campaign')!, names.campaign)}`, changes: { breakdown: 'adgroup', adgroup: null } }] : []),
    ...(p.get('adgroup') ? [{ text: `Ad group ${withName(p.get('adgroup')!, names.adgroup)}`, changes: { breakdown: 'ad' } }] : []),
  ];
  if (steps.length === 1) return null;
  return html`<nav aria-label="Drill-down" class="crumbs">${steps.map((s, i) =>
    i === steps.length - 1
      ? html`<span aria-current="location">${s.text}</span>`
      : html`<button type="button" class="link" onClick=${() => withParams(route, { ...s.changes, offset: null })}>${s.text}</button><span aria-hidden="true"> › </span>`)}</nav>`;
}

function MetricPicker({ route, metrics, profit }: { route: Route; metrics: string[]; profit: boolean }) {
  const toggle = (m: string) => {
    const next = metrics.includes(m) ? metrics.filter((x) => x !== m) : (METRIC_NAMES as string[]).filter((x) => x === m || metrics.includes(x));
    if (next.length) withParams(route, { metrics: next.join(',') });
  };
  return html`<details class="metric-picker"><summary>Columns</summary>
    <fieldset><legend>Metrics shown</legend>
      ${(METRIC_NAMES as string[]).filter((m) => profit || !PROFIT_ONLY.has(m)).map((m) => html`<label class="check">
        <input type="checkbox" name="metric" value=${m} checked=${metrics.includes(m)} onChange=${() => toggle(m)} /> ${label(m)}</label>`)}
    </fieldset></details>`;
}

/** The metrics with INCREMENTAL right after roas (at the end without it), each once. */
function withIncremental(metrics: string[]): string[] {
  const rest = metrics.filter((m) => !INCREMENTAL.includes(m));
  const at = rest.includes('roas') ? rest.indexOf('roas') + 1 : rest.length;
  return [...rest.slice(0, at), ...INCREMENTAL, ...rest.slice(at)];
}

function Compare({ route, zone, breakdown }: { route: Route; zone: string; breakdown: string }) {
  const params = rangedParams(route, zone, [...FILTER_PARAMS, 'campaign', 'adgroup', 'limit', 'offset']);
  params.set('breakdown', breakdown);
  params.set('metrics', 'revenue,conversions');
  const answer = useData<CompareAnswer>('compare', params);
  const d = answer.data;
  if (!d) return html`<${Status} loading=${answer.loading} error=${answer.error} />`;
  const keyOf = (row: Row) => ['source', breakdown].map((k) => row[k] ?? '').join('\t');
  const rows = new Map<string, Row>();
  for (const { model, data } of d.models) {
    for (const row of data) {
      const merged = rows.get(keyOf(row)) ?? { ...row };
      merged[`${model}_revenue`] = row.revenue;
      merged[`${model}_conversions`] = row.conversions;
      rows.set(keyOf(row), merged);
    }
  }
  const totals: Row = {};
  for (const { model, totals: t } of d.models) {
    totals[`${model}_revenue`] = t.revenue;
    totals[`${model}_conversions`] = t.conversions;
  }
  // One table per measure: eight models of both side by side would not fit a screen.
  const of = (part: 'revenue' | 'conversions', kind: 'money' | 'share'): Column[] =>
    [...keyColumns(breakdown), ...MODELS.map((m) => ({ key: `${m}_${part}`, label: label(m), kind }))];
  return html`<${Table} caption="Revenue under each model" columns=${of('revenue', 'money')} rows=${[...rows.values()]} totals=${totals}
      filename=${`storelens-models-revenue-${breakdown}.csv`} />
    <${Table} caption="Conversions under each model" columns=${of('conversions', 'share')} rows=${[...rows.values()]} totals=${totals}
      filename=${`storelens-models-conversions-${breakdown}.csv`} />`;
}

export function Report({ route, workspace }: ViewProps) {
  const p = route.params;
  const breakdown = p.get('breakdown') ?? 'source';
  const metrics = (p.get('metrics') ?? [...BASE_METRICS, ...(workspace.profit ? PROFIT_METRICS : [])].join(',')).split(',').filter(Boolean);
  // The model: the URL's, else the one the last answer applied (the workspace default).
  const [appliedModel, setAppliedModel] = useState<string | null>(null);
  const model = p.get('attribution_model') ?? appliedModel;
  const shown = model === 'data_driven' ? withIncremental(metrics) : metrics;
  const params = rangedParams(route, workspace.timezone, [...FILTER_PARAMS, 'campaign', 'adgroup', 'interval', 'name', 'limit', 'offset']);
  params.set('breakdown', breakdown);
  params.set('metrics', shown.join(','));
  const comparing = p.get('compare') === '1';
  const answer = useData<ReportAnswer>(comparing ? null : 'report', params);
  const d = answer.data;
  const applied = d?.settings_applied.attribution_model ?? null;
  useEffect(() => {
    if (applied) setAppliedModel(applied);
  }, [applied]);
  // The clicked row's key becomes a filter named after its breakdown.
  const next = drillBelow(breakdown);
  const open = next
    ? (row: Row) => withParams(route, { breakdown: next, [breakdown]: String(row[breakdown]), ...(breakdown === 'source' ? { campaign: null, adgroup: null } : {}), offset: null })
    : undefined;
  const columns: Column[] = [
    ...(p.get('interval') ? [{ key: 'date', label: 'Date', kind: 'text' as const }] : []),
    ...keyColumns(breakdown, open),
    ...shown.map((m) => ({ key: m, label: label(m), kind: METRIC_KINDS[m] ?? 'count' })),
  ];
  const page = d?.pagination;
  return html`
    <${Filters} route=${route} zone=${workspace.timezone} applied=${d?.settings_applied} exclude=${true} />
    <div class="toolbar">
      <label>Breakdown
        <select name="breakdown" onChange=${(e: Event) => withParams(route, { breakdown: (e.target as HTMLSelectElement).value, offset: null })}>
          ${BREAKDOWNS.map((b) => html`<option value=${b} selected=${b === breakdown}>${label(b)}</option>`)}
        </select>
      </label>
      <label class="check"><input type="checkbox" name="compare" checked=${comparing}
        onChange=${() => withParams(route, { compare: comparing ? null : '1' })} /> Compare the models</label>
      ${!comparing && html`<${MetricPicker} route=${route} metrics=${metrics} profit=${workspace.profit} />`}
    </div>
    ${!comparing && model === 'data_driven' && html`<p class="note" data-testid="incremental-note">Data-driven credits each channel only
      with the sales it added beyond what would have happened anyway (the rest is organic): incremental conversions are those sales,
      and iROAS their revenue per unit of spend, beside ROAS. docs/attribution.md, "data_driven".</p>`}
    <${Breadcrumbs} route=${route} names=${d?.drill_names ?? {}} />
    ${comparing
      ? html`<${Compare} route=${route} zone=${workspace.timezone} breakdown=${breakdown} />`
      : html`<${Status} loading=${answer.loading} error=${answer.error} />
        ${d && html`<${Table} caption=${`Attribution by ${label(breakdown).toLowerCase()}`} columns=${columns} rows=${d.data.map(shownCosts)} totals=${shownCosts(d.totals)}
          filename=${`storelens-report-${breakdown}.csv`} />
          <div class="pager">
            <span>${page!.total_rows === 0 ? 'No rows' : `Rows ${page!.offset + 1}–${page!.offset + d.data.length} of ${page!.total_rows}`}</span>
            <button type="button" class="secondary" disabled=${page!.offset === 0}
              onClick=${() => withParams(route, { offset: String(Math.max(0, page!.offset - page!.limit)) })}>Previous page</button>
            <button type="button" class="secondary" disabled=${!page!.has_more}
              onClick=${() => withParams(route, { offset: String(page!.next_offset) })}>Next page</button>
          </div>`}`}
  `;
}
