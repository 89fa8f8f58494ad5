/** The Attribution view's endpoints: the report and every model side by side. */
import type { FastifyInstance } from 'fastify';
import { runReportIn, runReportModels } from '../analytics/report/run.ts';
import { ATTRIBUTION_MODELS } from '../analytics/attribution/index.ts';
import { adNames } from '../analytics/queries/ads/ad-names.ts';
import { viewRequest } from './view-request.ts';

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  /** Attribution: exactly /v3/report's answer for the same parameters. */
  app.get('/dashboard/api/report', async (request) => {
    const { access, query, range } = viewRequest(request);
    const result = await runReportIn(app.stores, access, range, query);
    // The drill-down's breadcrumbs name the campaign and ad group they stand in, as the report's rows name them.
    const names = await adNames(app.stores.ch, access, { campaigns: query.campaign ? [query.campaign] : [], adgroups: query.adgroup ? [query.adgroup] : [], ads: [] });
    const drillNames = {
      ...(query.campaign ? { campaign: names.campaign.get(query.campaign) ?? '' } : {}),
      ...(query.adgroup ? { adgroup: names.adgroup.get(query.adgroup) ?? '' } : {}),
    };
    return { data: result.rows, totals: result.totals, pagination: result.pagination, settings_applied: result.settings_applied, drill_names: drillNames };
  });

  /** Every model side by side for the same rows: one report statement computing every model's credits. */
  app.get('/dashboard/api/compare', async (request) => {
    const { access, query, range } = viewRequest(request);
    const runs = await runReportModels(app.stores, access, range, query, ATTRIBUTION_MODELS);
    return { models: ATTRIBUTION_MODELS.map((model, i) => ({ model, data: runs[i]!.rows, totals: runs[i]!.totals })) };
  });
}
