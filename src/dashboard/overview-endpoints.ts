/** The Overview view's endpoint. */
import type { FastifyInstance } from 'fastify';
import { runReportIn } from '../analytics/report/run.ts';
import type { MetricName } from '../analytics/metrics.ts';
import { previousPeriod } from '../kit/calendar/range.ts';
import { intervalFor, viewRequest } from './view-request.ts';

const OVERVIEW_METRICS: MetricName[] = ['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cr'];

/** Metrics built on parts that come by whole day (ads rows, expenses): a part of a day has no comparable figure. */
const BY_WHOLE_DAY = new Set<MetricName>(['spend', 'impressions', 'clicks', 'roas', 'cpa', 'ctr', 'contribution_profit', 'net_profit', 'net_roas']);

export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  /** Overview: the totals of the range and of the period before it, and one series. Two report runs. */
  app.get('/dashboard/api/overview', async (request) => {
    const now = Date.now();
    const { access, query, range } = viewRequest(request, now);
    const metrics = [...OVERVIEW_METRICS, ...(access.visibility.profit ? (['net_profit'] as MetricName[]) : [])];
    const interval = query.interval ?? intervalFor(range.startMs, range.endMs);
    const base = { ...query, metrics, breakdown: undefined, offset: 0 };
    const { partial, ...before } = previousPeriod(range, now);
    const [current, previous] = await Promise.all([
      runReportIn(app.stores, access, range, { ...base, interval, limit: 500 }, now),
      runReportIn(app.stores, access, before, { ...base, interval: undefined, limit: 1 }, now),
    ]);
    const comparable = (m: MetricName) => !partial || !BY_WHOLE_DAY.has(m);
    return {
      interval,
      metrics,
      totals: current.totals,
      previous: Object.fromEntries(metrics.map((m) => [m, comparable(m) ? (previous.totals[m] ?? null) : null])),
      series: current.rows,
      range: { start_date: current.pagination.start_date, end_date: current.pagination.end_date },
      previous_range: { start_date: previous.pagination.start_date, end_date: previous.pagination.end_date },
      partial,
      settings_applied: current.settings_applied,
    };
  });
}
