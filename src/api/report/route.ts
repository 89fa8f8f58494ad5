import type { FastifyPluginAsync } from 'fastify';
import { dataRoute } from '../../http/data-route.ts';
import { runReport } from '../../analytics/report/run.ts';
import { parseReportQuery } from './schema.ts';

/**
 * GET /v3/report: the dashboard numbers (attribution, settings, profit), via the shared report core.
 * `settings_applied` is the core's own, the same object the tools answer with.
 */
export const reportRoute: FastifyPluginAsync = async (app) => {
  dataRoute(app, '/report', async (request) => {
    const query = parseReportQuery(request.query);
    const report = await runReport(app.stores, request.auth!, query);
    return { data: report.rows, totals: report.totals, pagination: report.pagination, settings_applied: report.settings_applied };
  });
};
