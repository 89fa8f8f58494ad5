/**
 * The saved reports view's endpoints (docs/dashboard.md, "Saved reports"): the custom reports an
 * assistant saved with dashboards.create-report, listed for the member and each run through the
 * report core as the member may see it.
 */
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../kit/errors.ts';
import { expandSourceGroups } from '../analytics/permissions.ts';
import { visibleTo } from '../analytics/stored-channels.ts';
import { runReportIn, type ReportRequest } from '../analytics/report/run.ts';
import type { ToolObject } from '../store/app/tool-objects.ts';
import { SAVED_REPORT_KIND, findSavedReport, listSavedReports, type SavedReport } from '../store/app/saved-reports.ts';
import { parseReportQuery } from '../api/report/schema.ts';
import { pathId, type IdRequest } from './path-id.ts';
import { workspaceAccess, type WorkspaceAccess } from './access.ts';
import { viewRange } from './store-calendar.ts';
import type { Range, Undated } from '../kit/calendar/range.ts';

const shown = (report: ToolObject<SavedReport>) => ({
  id: String(report.id),
  name: report.data.name,
  metrics: report.data.metrics,
  breakdown: report.data.breakdown ?? null,
  interval: report.data.interval ?? null,
  filters: report.data.filters ?? {},
  attribution_model: report.data.attribution_model ?? null,
  attribution_window: report.data.attribution_window ?? null,
  attribution_date: report.data.attribution_date ?? null,
  created_at: report.createdAt,
});

const idOf = (request: IdRequest) => pathId(request, 'Report');

/** A saved report the member may see: one whose saved source filters name a channel hidden from them is not found. */
async function requireSavedReport(app: FastifyInstance, access: WorkspaceAccess, id: number): Promise<ToolObject<SavedReport>> {
  const report = await findSavedReport(app.stores.db, access.workspaceId, id);
  if (!report || !visibleTo(access.visibility, SAVED_REPORT_KIND, report.data as unknown as Record<string, unknown>)) {
    throw new NotFound(`Saved report ${id} not found`);
  }
  return report;
}

/**
 * The report request of a saved report in the view: its metrics, breakdown, interval, sources
 * and attribution; the URL's dates, attribution switches and page take precedence, and without
 * dates in either the store's default days apply. Dates are the workspace's calendar days, as in
 * every view, resolved here once: the range goes to the report beside the request.
 */
function savedRequest(saved: SavedReport, url: ReportRequest, access: WorkspaceAccess, now: number): { request: Undated<ReportRequest>; range: Range } {
  const filters = saved.filters ?? {};
  const urlDated = url.start_date !== undefined || url.end_date !== undefined;
  const dates = urlDated ? { start_date: url.start_date, end_date: url.end_date } : { start_date: filters.date_from, end_date: filters.date_to };
  const range = viewRange(dates, access.timeZone, now);
  const expand = (names: string[] | undefined) => names && expandSourceGroups(names, access.visibility);
  const request = {
    metrics: saved.metrics,
    breakdown: saved.breakdown,
    interval: saved.interval,
    source: expand(filters.source),
    exclude_source: url.exclude_source ?? expand(filters.ignore_sources),
    attribution_model: url.attribution_model ?? saved.attribution_model,
    attribution_window: url.attribution_window ?? saved.attribution_window,
    attribution_date: url.attribution_date ?? saved.attribution_date,
    limit: url.limit ?? 100,
    offset: url.offset ?? 0,
  };
  return { request, range };
}

export async function savedReportRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/api/saved-reports', async (request) => {
    const access = workspaceAccess(request);
    const all = await listSavedReports(app.stores.db, access.workspaceId);
    const visible = all.filter((r) => visibleTo(access.visibility, SAVED_REPORT_KIND, r.data as unknown as Record<string, unknown>));
    return { reports: visible.map(shown) };
  });

  app.get<{ Params: { id: string } }>('/dashboard/api/saved-reports/:id', async (request) => {
    const access = workspaceAccess(request);
    const url = parseReportQuery(request.query, ['workspace']);
    const saved = await requireSavedReport(app, access, idOf(request));
    const { request: asked, range } = savedRequest(saved.data, url, access, Date.now());
    const result = await runReportIn(app.stores, access, range, asked);
    return { report: shown(saved), data: result.rows, totals: result.totals, pagination: result.pagination, settings_applied: result.settings_applied };
  });
}
