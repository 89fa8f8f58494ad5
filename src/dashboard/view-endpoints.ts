/**
 * The read endpoints behind the dashboard's views (docs/dashboard.md, "JSON endpoints"). Each
 * takes the data API's own query parameters plus `workspace`, reads through the same query layer
 * as the API (the report core, the conversion queries) and uses as few report runs as it can.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFound } from '../kit/errors.ts';
import { DAY_MS } from '../kit/calendar/days.ts';
import { UTC } from '../kit/calendar/zones.ts';
import { rangePage } from '../kit/paging.ts';
import { previousPeriod, type Range } from '../kit/calendar/range.ts';
import { channelsOfAll } from '../analytics/sources.ts';
import { seesChannel } from '../analytics/permissions.ts';
import { runReportIn, type ReportRequest } from '../analytics/report/run.ts';
import { runProductSales } from '../analytics/product-sales.ts';
import { ATTRIBUTION_MODELS, MODELS, planAttribution } from '../analytics/attribution/index.ts';
import { ensureExcludedList } from '../analytics/queries/settings/excluded-transactions.ts';
import type { MetricName } from '../analytics/metrics.ts';
import { listConversions } from '../analytics/queries/conversions/list-conversions.ts';
import { conversionPath } from '../analytics/queries/conversions/conversion-path.ts';
import { explainConversion } from '../analytics/explain/explain-conversion.ts';
import { withAdNames } from '../analytics/touch-names.ts';
import { adNames } from '../analytics/queries/ads/ad-names.ts';
import { liveActivity } from '../analytics/queries/live/live-activity.ts';
import { getSettings } from '../store/app/workspaces.ts';
import { parseReportQuery } from '../api/report/schema.ts';
import { parseConversionsQuery } from '../api/conversions/schema.ts';
import { parseReconciliationQuery } from '../api/reconciliation/schema.ts';
import { reconcile } from '../analytics/reconciliation.ts';
import { parseCustomersQuery } from '../api/customers/schema.ts';
import { customerLtv } from '../analytics/customers.ts';
import { listConversionNames } from '../analytics/conversion-name-list.ts';
import { parseAttributionQuery } from '../api/attribution/schema.ts';
import { idParam, pageOf, parseQuery, text } from '../api/params.ts';
import { pixelScope } from '../analytics/query-scope.ts';
import { requireUser } from './auth.ts';
import { workspaceAccess, type WorkspaceAccess } from './access.ts';
import { viewDays, viewRange } from './store-calendar.ts';

export const OVERVIEW_METRICS: MetricName[] = ['spend', 'revenue', 'roas', 'conversions', 'sessions', 'cr'];
export const PROFIT_METRICS: MetricName[] = [
  'revenue', 'spend', 'cogs', 'payment_fees', 'shipping_costs', 'refunds',
  'gross_profit', 'contribution_profit', 'net_profit', 'gross_margin', 'net_margin', 'net_roas',
];

/** The chart's bucket when the request names none: days up to ~3 months, weeks up to 2 years, then months. */
export function intervalFor(startMs: number, endMs: number): 'day' | 'week' | 'month' {
  const days = (endMs - startMs) / DAY_MS;
  if (days <= 93) return 'day';
  return days <= 731 ? 'week' : 'month';
}

/** Metrics built on parts that come by whole day (ads rows, expenses): a part of a day has no comparable figure. */
const BY_WHOLE_DAY = new Set<MetricName>(['spend', 'impressions', 'clicks', 'roas', 'cpa', 'ctr', 'contribution_profit', 'net_profit', 'net_roas']);

function viewRequest(request: FastifyRequest, now = Date.now()): { access: WorkspaceAccess; query: ReportRequest; range: Range } {
  const access = workspaceAccess(request);
  const parsed = parseReportQuery(request.query, VIEW_PARAMS);
  return { access, query: parsed, range: viewRange(parsed, access.timeZone, now) };
}

const instants = (range: Range) => ({ start_date: new Date(range.startMs).toISOString(), end_date: new Date(range.endMs).toISOString() });

/** What every view endpoint reads beside the data API's parameters. */
const VIEW_PARAMS = ['workspace'];

const pathQuery = z.object({
  session_id: idParam('session_id').refine((v) => v !== undefined, { error: 'session_id must be numeric' }),
  dt: z.string({ error: 'dt must be a timestamp YYYY-MM-DD HH:MM:SS' }).regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, {
    error: 'dt must be a timestamp YYYY-MM-DD HH:MM:SS',
  }),
  name: text('Invalid name parameter'),
  transaction_id: text('Invalid transaction_id parameter').optional().default(''),
});

export async function viewRoutes(app: FastifyInstance): Promise<void> {
  const onRequest = requireUser(app);

  /** Overview: the totals of the range and of the period before it, and one series. Two report runs. */
  app.get('/dashboard/api/overview', { onRequest }, async (request) => {
    const now = Date.now();
    const { access, query, range } = viewRequest(request, now);
    const metrics = [...OVERVIEW_METRICS, ...(access.visibility.profit ? (['net_profit'] as MetricName[]) : [])];
    const interval = query.interval ?? intervalFor(range.startMs, range.endMs);
    const base = { ...query, metrics, breakdown: undefined, offset: 0 };
    const before = previousPeriod(range, now);
    const [current, previous] = await Promise.all([
      runReportIn(app.stores, access, range, { ...base, interval, limit: 500 }),
      runReportIn(app.stores, access, before, { ...base, interval: undefined, limit: 1 }),
    ]);
    const comparable = (m: MetricName) => !before.partial || !BY_WHOLE_DAY.has(m);
    return {
      interval,
      metrics,
      totals: current.totals,
      previous: Object.fromEntries(metrics.map((m) => [m, comparable(m) ? (previous.totals[m] ?? null) : null])),
      series: current.rows,
      range: { start_date: current.pagination.start_date, end_date: current.pagination.end_date },
      previous_range: { start_date: previous.pagination.start_date, end_date: previous.pagination.end_date },
      partial: before.partial,
      settings_applied: current.settings_applied,
    };
  });

  /** Attribution: exactly /v3/report's answer for the same parameters. */
  app.get('/dashboard/api/report', { onRequest }, async (request) => {
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

  /** Every model side by side for the same rows: one report run per model. */
  app.get('/dashboard/api/compare', { onRequest }, async (request) => {
    const { access, query, range } = viewRequest(request);
    const runs = await Promise.all(ATTRIBUTION_MODELS.map((model) => runReportIn(app.stores, access, range, { ...query, attribution_model: model })));
    return { models: ATTRIBUTION_MODELS.map((model, i) => ({ model, data: runs[i]!.rows, totals: runs[i]!.totals })) };
  });

  /** Profit: the profit metrics by source, and over time. Two report runs; needs read:profit. */
  app.get('/dashboard/api/profit', { onRequest }, async (request) => {
    const { access, query, range } = viewRequest(request);
    const interval = query.interval ?? intervalFor(range.startMs, range.endMs);
    const base = { ...query, metrics: PROFIT_METRICS, offset: 0, limit: 500 };
    const [bySource, overTime] = await Promise.all([
      runReportIn(app.stores, access, range, { ...base, breakdown: 'source', interval: undefined }),
      runReportIn(app.stores, access, range, { ...base, breakdown: undefined, interval }),
    ]);
    return { interval, metrics: PROFIT_METRICS, totals: bySource.totals, by_source: bySource.rows, series: overTime.rows, settings_applied: bySource.settings_applied };
  });

  /** Conversions: the raw rows of /v3/conversions, with its filters and paging, newest first. */
  app.get('/dashboard/api/conversions', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const query = parseConversionsQuery(request.query, VIEW_PARAMS);
    const scope = pixelScope(access, viewRange(query, access.timeZone, Date.now()), query.source);
    const page = pageOf(query);
    const rows = await listConversions(app.stores.ch, scope, {
      name: query.name,
      transactionId: query.transaction_id,
      customerId: query.customer_id,
      isNewCustomer: query.is_new_customer,
      excluded: channelsOfAll(query.exclude_source ?? []),
      page,
      newestFirst: true,
    });
    return rangePage(rows, page, scope.range);
  });

  /** The conversion names of the view's range with their counts, and whether the workspace counts each. */
  app.get('/dashboard/api/conversions/names', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const query = parseConversionsQuery(request.query, VIEW_PARAMS);
    const range = viewRange(query, access.timeZone, Date.now());
    return { ...(await listConversionNames(app.stores, access, range)), range: viewDays(range) };
  });

  /** One conversion's touchpoint path under the report's model, window and exclusions, campaigns, ad groups and ads named. */
  app.get('/dashboard/api/conversions/path', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const query = parseReportQuery(request.query, [...VIEW_PARAMS, ...Object.keys(pathQuery.shape)]);
    const key = parseQuery(pathQuery, request.query as Record<string, unknown>);
    const settings = await getSettings(app.stores.db, access.workspaceId);
    const attribution = planAttribution(query, settings, access.visibility);
    // The conversion must be one the member may list: same channel rule as the conversions view.
    const convMs = Date.parse(`${key.dt.replace(' ', 'T')}Z`);
    const visible = await listConversions(app.stores.ch, pixelScope(access, { startMs: convMs, endMs: convMs + 999, timeZone: UTC }), {
      name: key.name,
      transactionId: key.transaction_id,
      page: { limit: 100, offset: 0 },
    });
    if (!visible.some((c) => c.session_id === String(key.session_id))) throw new NotFound('Conversion not found');
    // A learned model (markov, data_driven) credits with what it learned over the view's range.
    await ensureExcludedList(app.stores.ch, access.workspaceId, settings.excluded_transaction_ids);
    const bound = await MODELS[attribution.model].bind?.({
      ch: app.stores.ch, db: app.stores.db, scope: pixelScope(access, viewRange(query, access.timeZone, Date.now())), attribution,
      visibleChannels: access.visibility.channels && [...access.visibility.channels], excludedTransactions: settings.excluded_transaction_ids,
    });
    const path = await conversionPath(app.stores.ch, {
      workspaceId: access.workspaceId,
      key: { sessionId: key.session_id!, dt: key.dt, name: key.name, transactionId: key.transaction_id },
      attribution,
      bound: bound ?? {},
    });
    if (!path) throw new NotFound('Conversion not found');
    // A viewer limited to some channels does not see the other channels' sessions.
    const visibleTouches = path.touches.filter((t) => seesChannel(access.visibility, t.channel));
    const touches = await withAdNames(app.stores.ch, access.workspaceId, visibleTouches);
    return {
      ...path,
      touches,
      attribution_model: attribution.model,
      attribution_window: attribution.windowDays,
      exclude_source: attribution.excludedSources,
    };
  });

  /**
   * Why one order was credited: /v3/attribution's answer for the member's permissions, the chain
   * learned over the view's range (the order is the newest sale with the id in it).
   */
  app.get('/dashboard/api/conversions/why', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const query = parseAttributionQuery(request.query, VIEW_PARAMS);
    const range = viewRange(query, access.timeZone, Date.now());
    return explainConversion(app.stores, access, { ...query, ...instants(range), timezone: access.timeZone });
  });

  /** Products: what sold in the range, per product and the source the report credits; the report's filters. */
  app.get('/dashboard/api/products', { onRequest }, async (request) => {
    const { access, query } = viewRequest(request);
    const { start_date, end_date, timezone, source, exclude_source, campaign, attribution_model, attribution_window, attribution_date, limit, offset } = query;
    return runProductSales(app.stores, access, {
      start_date, end_date, timezone, source, exclude_source, campaign, attribution_model, attribution_window, attribution_date, limit: limit ?? 100, offset,
    });
  });

  /** Storelens vs shop: the reconciliation of the range, on the workspace's calendar. */
  app.get('/dashboard/api/reconciliation', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const query = parseReconciliationQuery(request.query, VIEW_PARAMS);
    const range = viewRange(query, access.timeZone, Date.now());
    const { data, totals, conversionNames } = await reconcile(app.stores, access, range);
    return {
      data, totals, range: viewDays(range),
      settings_applied: { conversion_names: conversionNames },
    };
  });

  /** Customers: the range's new customers and their lifetime value, on the workspace's calendar. */
  app.get('/dashboard/api/customers', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const { breakdown, attribution_window, ...dates } = parseCustomersQuery(request.query, VIEW_PARAMS);
    const range = viewRange(dates, access.timeZone, Date.now());
    const answer = await customerLtv(app.stores, access, { breakdown, attribution_window }, Date.now(), range);
    return {
      data: answer.data, totals: answer.totals, breakdown: answer.breakdown, attribution_window: answer.attributionWindow,
      conversion_names: answer.countedNames, range: viewDays(range),
    };
  });

  /** Live: the last 30 minutes of pageviews and conversions, polled by the view. */
  app.get('/dashboard/api/live', { onRequest }, async (request) => {
    const access = workspaceAccess(request);
    const now = Date.now();
    const range = { startMs: now - 30 * 60_000, endMs: now, timeZone: UTC };
    const activity = await liveActivity(app.stores.ch, pixelScope(access, range), { recent: 50 });
    return { now: new Date(now).toISOString(), ...activity };
  });
}
