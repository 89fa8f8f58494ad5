/** The Profit view's endpoint. */
import type { FastifyInstance } from 'fastify';
import { runReportIn } from '../analytics/report/run.ts';
import type { MetricName } from '../analytics/metrics.ts';
import { intervalFor, viewRequest } from './view-request.ts';

const PROFIT_METRICS: MetricName[] = [
  'revenue', 'spend', 'cogs', 'payment_fees', 'shipping_costs', 'refunds',
  'gross_profit', 'contribution_profit', 'net_profit', 'gross_margin', 'net_margin', 'net_roas',
];

export async function profitRoutes(app: FastifyInstance): Promise<void> {
  /** Profit: the profit metrics by source, and over time. Two report runs; needs read:profit. */
  app.get('/dashboard/api/profit', async (request) => {
    const { access, query, range } = viewRequest(request);
    const interval = query.interval ?? intervalFor(range.startMs, range.endMs);
    const base = { ...query, metrics: PROFIT_METRICS, offset: 0, limit: 500 };
    const [bySource, overTime] = await Promise.all([
      runReportIn(app.stores, access, range, { ...base, breakdown: 'source', interval: undefined }),
      runReportIn(app.stores, access, range, { ...base, breakdown: undefined, interval }),
    ]);
    return { interval, metrics: PROFIT_METRICS, totals: bySource.totals, by_source: bySource.rows, series: overTime.rows, settings_applied: bySource.settings_applied };
  });
}
