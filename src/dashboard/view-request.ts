/**
 * What the read endpoints behind the views share (docs/dashboard.md, "JSON endpoints"): each takes
 * the data API's own query parameters plus `workspace`, on the workspace's calendar, and reads
 * through the same query layer as the API.
 */
import type { FastifyRequest } from 'fastify';
import { DAY_MS } from '../kit/calendar/days.ts';
import { undated, type Range, type Undated } from '../kit/calendar/range.ts';
import type { ReportRequest } from '../analytics/report/run.ts';
import { parseReportQuery } from '../api/report/schema.ts';
import { workspaceAccess, type WorkspaceAccess } from './access.ts';
import { viewRange } from './store-calendar.ts';

/** The chart's bucket when the request names none: days up to ~3 months, weeks up to 2 years, then months. */
export function intervalFor(startMs: number, endMs: number): 'day' | 'week' | 'month' {
  const days = (endMs - startMs) / DAY_MS;
  if (days <= 93) return 'day';
  return days <= 731 ? 'week' : 'month';
}

/**
 * A view's report request: the range resolved once on the workspace's calendar, and the data
 * API's other parameters, which go to the report beside it.
 */
export function viewRequest(request: FastifyRequest, now = Date.now()): { access: WorkspaceAccess; query: Undated<ReportRequest>; range: Range } {
  const access = workspaceAccess(request);
  const parsed = parseReportQuery(request.query, VIEW_PARAMS);
  return { access, query: undated(parsed), range: viewRange(parsed, access.timeZone, now) };
}

/** What every view endpoint reads beside the data API's parameters. */
export const VIEW_PARAMS = ['workspace'];
