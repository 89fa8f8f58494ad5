/**
 * Saved reports: the custom reports the assistant saved (dashboards.create-report), each a view of
 * its own. Choosing one runs it through the report core with its metrics, breakdown, interval,
 * sources and attribution, on the dates of the filters (or its own saved dates), and shows it as
 * the other views do: a chart when it has an interval, and its table.
 */
import { html } from 'htm/preact';
import type { ViewProps } from './props.ts';
import { rangedParams, useData } from '../data.ts';
import { Filters, type Applied } from '../filters.ts';
import { Chart } from '../../../ui/chart.ts';
import { Table, type Column, type Row } from '../../../ui/table.ts';
import { label, METRIC_KINDS } from '../../../ui/format.ts';
import { withParams, type Route } from '../router.ts';
import { FILTER_PARAMS, Status, shownCosts } from './common.ts';

interface SavedReport {
  id: string;
  name: string;
  metrics: string[];
  breakdown: string | null;
  interval: string | null;
  filters: { date_from?: string; date_to?: string; source?: string[]; ignore_sources?: string[] };
}

interface RunAnswer {
  report: SavedReport;
  data: Row[];
  totals: Row;
  pagination: { offset: number; limit: number; has_more: boolean; next_offset: number | null; total_rows: number };
  settings_applied: Applied;
}

/** What a saved report shows, in words: its metrics, breakdown, interval and sources. */
function summary(report: SavedReport): string {
  const parts = [report.metrics.map(label).join(', ')];
  if (report.breakdown) parts.push(`by ${label(report.breakdown).toLowerCase()}`);
  if (report.interval) parts.push(`per ${report.interval}`);
  if (report.filters.source?.length) parts.push(`sources ${report.filters.source.join(', ')}`);
  return parts.join(' · ');
}

function SavedReportRun({ route, report, zone }: { route: Route; report: SavedReport; zone: string }) {
  const params = rangedParams(route, zone, [...FILTER_PARAMS.filter((p) => p !== 'source'), 'offset']);
  const answer = useData<RunAnswer>(`saved-reports/${report.id}`, params);
  const d = answer.data;
  const filters = html`<${Filters} route=${route} zone=${zone} applied=${d?.settings_applied} exclude=${true} />`;
  if (!d) return html`${filters}<${Status} loading=${answer.loading} error=${answer.error} />`;
  const keys = report.breakdown ? [report.breakdown] : [];
  const columns: Column[] = [
    ...(report.interval ? [{ key: 'date', label: 'Date', kind: 'text' as const }] : []),
    ...keys.map((k) => ({ key: k, label: label(k), kind: 'text' as const })),
    ...report.metrics.map((m) => ({ key: m, label: label(m), kind: METRIC_KINDS[m] ?? 'count' })),
  ];
  const first = report.metrics[0]!;
  const page = d.pagination;
  return html`${filters}<${Status} loading=${answer.loading} error=${answer.error} />
    ${report.interval && !report.breakdown && html`<${Chart} title=${`${label(first)} per ${report.interval}`} x=${d.data.map((r) => String(r.date))}
      series=${[{ label: label(first), values: d.data.map((r) => r[first] as number | null), kind: METRIC_KINDS[first] ?? 'count' }]} />`}
    <${Table} caption=${summary(report)} columns=${columns} rows=${d.data.map(shownCosts)} totals=${shownCosts(d.totals)} filename=${`storelens-saved-report-${report.id}.csv`} />
    <div class="pager">
      <span>${page.total_rows === 0 ? 'No rows' : `Rows ${page.offset + 1}–${page.offset + d.data.length} of ${page.total_rows}`}</span>
      <button type="button" class="secondary" disabled=${page.offset === 0}
        onClick=${() => withParams(route, { offset: String(Math.max(0, page.offset - page.limit)) })}>Previous page</button>
      <button type="button" class="secondary" disabled=${!page.has_more}
        onClick=${() => withParams(route, { offset: String(page.next_offset) })}>Next page</button>
    </div>`;
}

export function SavedReports({ route, workspace }: ViewProps) {
  const answer = useData<{ reports: SavedReport[] }>('saved-reports', { workspace: String(workspace.id) });
  const reports = answer.data?.reports ?? [];
  const selected = reports.find((r) => r.id === route.params.get('report'));
  // Opening a report shows its saved dates in the filters (the view's dates win over them afterwards).
  const open = (report: SavedReport) => withParams(route, {
    report: report.id, offset: null,
    ...(report.filters.date_from || report.filters.date_to ? { start_date: report.filters.date_from ?? null, end_date: report.filters.date_to ?? null } : {}),
  });
  const columns: Column[] = [
    { key: 'name', label: 'Report', kind: 'text', onOpen: (row) => open(row as unknown as SavedReport) },
    { key: 'metrics', label: 'Shows', kind: 'text', display: (row) => summary(row as unknown as SavedReport) },
  ];
  return html`
    <p class="note">Reports the assistant saved with dashboards.create-report. Opening one sets the dates to its saved ones, if it has
      any; then it runs on the dates below.</p>
    <${Status} loading=${answer.loading} error=${answer.error} />
    ${answer.data && html`<${Table} caption="Saved reports" columns=${columns} rows=${reports as unknown as Row[]} filename="storelens-saved-reports.csv"
      empty="No saved reports yet: ask the assistant to save one with dashboards.create-report." />`}
    ${selected && html`<h2>${selected.name}</h2>
      <${SavedReportRun} route=${route} report=${selected} zone=${workspace.timezone} />`}
  `;
}
