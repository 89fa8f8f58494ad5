/**
 * Fixed, representative inputs for every file that builds analytics SQL, keyed by the file's path
 * under src/. Each case calls the file's exported builder the way its callers do; the test
 * (snapshots.test.ts) records what would reach the analytics store and compares it with the
 * committed snapshot of that file. A new query file needs an entry here: the test names the files
 * that have none.
 */
import type { Clickhouse, QueryParams } from '../../src/store/clickhouse.ts';
import type { AppDatabase } from '../../src/store/app-db.ts';
import type { QueryScope } from '../../src/analytics/query-scope.ts';
import { channelsOfAll } from '../../src/analytics/sources.ts';
import { visibilityOf } from '../../src/analytics/permissions.ts';
import { prepareReport, runReport, runReportModels } from '../../src/analytics/report/run.ts';
import { updateSettings } from '../../src/store/app/workspaces.ts';
import type { ReportRequest } from '../../src/analytics/report/plan.ts';
import { resolveRange, type Range, type Undated } from '../../src/kit/calendar/range.ts';
import { variantPerformance } from '../../src/analytics/queries/ab-testing/variant-performance.ts';
import { dailyAdDelivery } from '../../src/analytics/queries/ad-fatigue/daily-ad-delivery.ts';
import { adConditions } from '../../src/analytics/queries/ads/ads-scope.ts';
import { adNames } from '../../src/analytics/queries/ads/ad-names.ts';
import { listAds } from '../../src/analytics/queries/ads/list-ads.ts';
import { totalAds } from '../../src/analytics/queries/ads/total-ads.ts';
import { chainCounts } from '../../src/analytics/queries/attribution/chain-counts.ts';
import { visitorPatterns } from '../../src/analytics/queries/attribution/visitor-patterns.ts';
import { creatorPerformance } from '../../src/analytics/queries/creators/creator-performance.ts';
import { conversionCredits } from '../../src/analytics/queries/attribution/conversion-credits.ts';
import { ATTRIBUTION_MODELS, type ModelName } from '../../src/analytics/attribution/index.ts';
import { countSegmentMembers } from '../../src/analytics/queries/segments/segment-members.ts';
import { geoTestDaily } from '../../src/analytics/queries/geo/geo-test-daily.ts';
import { knownAdIds } from '../../src/analytics/queries/ads/known-ad-ids.ts';
import { conversionPath } from '../../src/analytics/queries/conversions/conversion-path.ts';
import { attributedConversions } from '../../src/analytics/queries/conversions/conversion-scope.ts';
import { groupConversions } from '../../src/analytics/queries/conversions/group-conversions.ts';
import { listConversions } from '../../src/analytics/queries/conversions/list-conversions.ts';
import { newConversions } from '../../src/analytics/queries/conversions/new-conversions.ts';
import { conversionNameCounts } from '../../src/analytics/queries/conversions/name-counts.ts';
import { newestConversion } from '../../src/analytics/queries/conversions/newest-conversion.ts';
import { eventsStatement, listEvents } from '../../src/analytics/queries/events/list-events.ts';
import { countRows, streamRows } from '../../src/analytics/export/stream-rows.ts';
import { geoBreakdown } from '../../src/analytics/queries/geo/geo-breakdown.ts';
import { geoTestCandidates } from '../../src/analytics/queries/geo/geo-test-candidates.ts';
import { adFreshness } from '../../src/analytics/queries/health/ad-freshness.ts';
import { pixelHealth } from '../../src/analytics/queries/health/pixel-health.ts';
import { booksByDay } from '../../src/analytics/queries/reconciliation/books-by-day.ts';
import { countWorkspaceRows } from '../../src/analytics/queries/imports/count-workspace-rows.ts';
import { touchpointPaths } from '../../src/analytics/queries/journeys/touchpoint-paths.ts';
import { adCreatives } from '../../src/analytics/queries/library/ad-creatives.ts';
import { adSources } from '../../src/analytics/queries/library/ad-sources.ts';
import { ensureExcludedList } from '../../src/analytics/queries/settings/excluded-transactions.ts';
import { liveActivity } from '../../src/analytics/queries/live/live-activity.ts';
import { repeatCustomers } from '../../src/analytics/queries/loyalty/repeat-customers.ts';
import { programFigures } from '../../src/analytics/queries/loyalty/program-members.ts';
import { countFormSubmissions } from '../../src/analytics/queries/forms/count-submissions.ts';
import { listFormSubmissions } from '../../src/analytics/queries/forms/list-submissions.ts';
import { newestFormSubmissions } from '../../src/analytics/queries/forms/newest-submissions.ts';
import { runProductSales, type ProductSalesRequest } from '../../src/analytics/product-sales.ts';
import { customerLtv, type CustomersRequest } from '../../src/analytics/customers.ts';
import { customerCohorts } from '../../src/analytics/queries/customers/customer-cohorts.ts';
import { cartAbandonment } from '../../src/analytics/queries/offers/cart-abandonment.ts';
import { couponPerformance } from '../../src/analytics/queries/offers/coupon-performance.ts';
import { listSessions } from '../../src/analytics/queries/sessions/list-sessions.ts';
import { answersBySource } from '../../src/analytics/queries/surveys/answers-by-source.ts';
import { countSurveyResponses } from '../../src/analytics/queries/surveys/count-responses.ts';
import { listSurveyResponses } from '../../src/analytics/queries/surveys/list-responses.ts';
import { landingColumns, sessionsStartedIn } from '../../src/analytics/queries/sessions/session-sql.ts';
import { sessionsInRange } from '../../src/analytics/queries/tool-common/sessions-in-range.ts';
import { hourlyActivity } from '../../src/analytics/queries/traffic/hourly-activity.ts';
import { findCatalogProduct } from '../../src/analytics/queries/tryon/find-catalog-product.ts';
import { weatherSales } from '../../src/analytics/queries/weather/weather-sales.ts';
import { findProductCosts } from '../../src/collect/queries/find-product-costs.ts';
import { findStoredOrder } from '../../src/collect/queries/find-stored-order.ts';
import { findStoredTransactions } from '../../src/collect/queries/find-stored-transactions.ts';

export interface CaseContext {
  db: AppDatabase;
  workspaceId: number;
}

/** A query function run against the recording store; `rows` answer every read it makes. */
export interface QueryCase {
  name: string;
  rows?: Record<string, unknown>[];
  run(ch: Clickhouse, ctx: CaseContext): Promise<unknown>;
}

/** A builder of a SQL fragment that other queries embed: its text and parameters as returned. */
export interface FragmentCase {
  name: string;
  fragment(ctx: CaseContext): { sql: string; params: QueryParams };
}

export type SqlCase = QueryCase | FragmentCase;

/** October 2026, UTC; "now" is in the middle of November. */
const OCTOBER = { startMs: Date.UTC(2026, 9, 1), endMs: Date.UTC(2026, 10, 1) - 1, timeZone: 'UTC' };
export const NOW = Date.UTC(2026, 10, 15, 12, 0, 0);
const PAGE = { limit: 100, offset: 0 };
const SECOND_PAGE = { limit: 50, offset: 50 };

/** Every channel (an unrestricted key), or the channels of a key that reads Meta and organic only. */
const everyChannel = (ctx: CaseContext): QueryScope => ({ workspaceId: ctx.workspaceId, range: OCTOBER, channels: null });
const someChannels = (ctx: CaseContext): QueryScope => ({ workspaceId: ctx.workspaceId, range: OCTOBER, channels: channelsOfAll(['meta', 'organic']) });

const ADMIN = { visibility: visibilityOf(['admin:admin']) };
const META_WITH_PROFIT = { visibility: visibilityOf(['read:meta', 'read:google', 'read:organic', 'read:profit']) };

const report = (name: string, request: ReportRequest, auth = ADMIN, rows?: Record<string, unknown>[]): QueryCase => ({
  name,
  rows,
  run: (ch, ctx) => runReport({ ch, db: ctx.db }, { workspaceId: ctx.workspaceId, ...auth }, { start_date: '2026-10-01', end_date: '2026-10-31', ...request }, NOW),
});

const reportModels = (name: string, request: Undated<ReportRequest>, models: readonly ModelName[]): QueryCase => ({
  name,
  run: (ch, ctx) => runReportModels({ ch, db: ctx.db }, { workspaceId: ctx.workspaceId, ...ADMIN }, OCTOBER, request, models, NOW),
});

const products = (name: string, request: ProductSalesRequest, auth = ADMIN): QueryCase => ({
  name,
  run: (ch, ctx) => runProductSales({ ch, db: ctx.db }, { workspaceId: ctx.workspaceId, ...auth }, OCTOBER, request, NOW),
});

const customers = (name: string, request: CustomersRequest, auth = ADMIN, range: Range = OCTOBER): QueryCase => ({
  name,
  run: (ch, ctx) => customerLtv({ ch, db: ctx.db }, { workspaceId: ctx.workspaceId, ...auth }, range, request, NOW),
});

export const SQL_CASES: Record<string, SqlCase[]> = {
  'analytics/queries/customers/customer-cohorts.ts': [
    customers('whole workspace, no breakdown', {}),
    customers('by first campaign, a key that sees some channels, 28-day window', { breakdown: 'first_campaign', attribution_window: 28 }, META_WITH_PROFIT),
    customers('by cohort month in New York time', { breakdown: 'cohort_month' }, ADMIN,
      resolveRange({ start_date: '2026-10-01', end_date: '2026-10-31', timezone: 'America/New_York' }, NOW)),
    {
      name: 'counted names purchase and order_*',
      run: async (ch, ctx) => {
        const { plan } = await prepareReport({ ch, db: ctx.db }, { workspaceId: ctx.workspaceId, ...ADMIN }, OCTOBER, { attribution_model: 'first_click' }, NOW);
        return customerCohorts(ch, { plan, breakdown: 'first_source', countedNames: ['purchase', 'order_*'], nowMs: NOW });
      },
    },
  ],
  'analytics/export/stream-rows.ts': [
    { name: 'NDJSON of every event', run: (ch, ctx) => streamRows(ch, 'export-events', eventsStatement(everyChannel(ctx), {}), { format: 'ndjson' }, async () => {}) },
    {
      name: 'CSV of some channels\' events, resumed after 1000 rows',
      rows: [{ name: 'store_id', type: 'String' }, { name: 'entry_meta_keys', type: 'Array(String)' }],
      run: (ch, ctx) => streamRows(ch, 'export-events', eventsStatement(someChannels(ctx), {}), { format: 'csv', resume: { rows: 1000 } }, async () => {}),
    },
    { name: 'count of every event', run: (ch, ctx) => countRows(ch, 'export-events', eventsStatement(everyChannel(ctx), {})) },
  ],
  'analytics/report/build-sql.ts': [
    report('whole workspace, default metrics and settings', {}),
    report('by campaign per day, first click over 28 days', { breakdown: 'campaign', interval: 'day', attribution_model: 'first_click', attribution_window: 28 }),
    report('by source, linear', { breakdown: 'source', attribution_model: 'linear' }),
    report('per month in New York time', { interval: 'month', timezone: 'America/New_York' }),
    report('by source, u-shaped, by click date', { breakdown: 'source', attribution_model: 'u_shaped', attribution_date: 'click' }),
    report('by source, total impact', { breakdown: 'source', attribution_model: 'total_impact' }),
    report('by source, any click', { breakdown: 'source', attribution_model: 'any_click' }),
    report('by campaign, markov (the chain is read first)', { breakdown: 'campaign', attribution_model: 'markov' }),
    report('by source, data driven (the visitor patterns are read first)', { breakdown: 'source', attribution_model: 'data_driven', metrics: ['conversions', 'incremental_conversions', 'incremental_revenue', 'iroas'] }),
    report('by ad within one campaign and ad group, wildcard conversion name', { breakdown: 'ad', campaign: '1201', adgroup: '3401', name: 'purchase*' }),
    report('by UTM campaign per week, email excluded from paths', { breakdown: 'utm_campaign', interval: 'week', exclude_source: ['email'] }),
    report('by city, a restricted key filtered to Meta', { breakdown: 'city', source: ['meta'] }, META_WITH_PROFIT),
    report('profit metrics over the whole workspace (an empty result reads the expenses alone)', {
      metrics: ['revenue', 'spend', 'cogs', 'payment_fees', 'net_profit', 'net_roas'],
    }),
    report('a page past the end reads the totals again', { breakdown: 'coupon_code', limit: 10, offset: 40 }),
    report('by ad, the ads alone, by ROAS ascending (the creative library)', { breakdown: 'ad', keyed_rows: true, sort_by: 'roas', order: 'asc' }),
    reportModels('every model side by side by source, in one statement', { breakdown: 'source' }, ATTRIBUTION_MODELS),
    report('by net profit, an ad drilled to', { breakdown: 'campaign', metrics: ['revenue', 'net_profit'], sort_by: 'net_profit', ad: '5601' }),
    report('the conversions and unattributed orders of a segment\'s customers, by source', {
      breakdown: 'source', segment_rules: [{ field: 'orders_count', operator: 'greater_than', value: 1 }, { field: 'adv_source', operator: 'equals', value: 'meta' }],
    }),
    report('a segment on landing channels for a restricted key: only the channels it sees', {
      segment_rules: [{ field: 'adv_source', operator: 'contains', value: 'tik' }],
    }, META_WITH_PROFIT),
    report('the earlier rows a comparison pairs, by source per day', { breakdown: 'source', interval: 'day', row_keys: [['2026-10-01', 'meta'], ['2026-10-02', 'google']] }),
    {
      name: 'the workspace counts purchases and every sign_up* name, unattributed orders included',
      run: async (ch, ctx) => {
        await updateSettings(ctx.db, ctx.workspaceId, { conversion_names: ['purchase', 'sign_up*'], include_unattributed: true });
        try {
          await report('', {}).run(ch, ctx);
        } finally {
          await updateSettings(ctx.db, ctx.workspaceId, { conversion_names: ['*'], include_unattributed: false });
        }
      },
    },
    {
      // Every read answers one row: the excluded list's check finds the list whole, so nothing is written.
      name: 'transactions left out by the settings, unattributed orders included',
      rows: [{ ids: '2' }],
      run: async (ch, ctx) => {
        await updateSettings(ctx.db, ctx.workspaceId, { excluded_transaction_ids: ['T-1001', '#1002'], include_unattributed: true });
        try {
          await report('', {}).run(ch, ctx);
        } finally {
          await updateSettings(ctx.db, ctx.workspaceId, { excluded_transaction_ids: [], include_unattributed: false });
        }
      },
    },
  ],
  'analytics/queries/ab-testing/variant-performance.ts': [
    { name: 'every test', run: (ch, ctx) => variantPerformance(ch, everyChannel(ctx)) },
    { name: 'one test, some channels', run: (ch, ctx) => variantPerformance(ch, someChannels(ctx), { testId: 'hero' }) },
    { name: 'one test, purchases only', run: (ch, ctx) => variantPerformance(ch, everyChannel(ctx), { testId: 'hero', names: ['purchase'] }) },
  ],
  'analytics/queries/ad-fatigue/daily-ad-delivery.ts': [
    { name: 'every channel', run: (ch, ctx) => dailyAdDelivery(ch, everyChannel(ctx)) },
    { name: 'some channels', run: (ch, ctx) => dailyAdDelivery(ch, someChannels(ctx)) },
  ],
  'analytics/queries/ads/ads-scope.ts': [
    { name: 'every channel, no filter', fragment: (ctx) => sqlOf(adConditions(everyChannel(ctx), {})) },
    {
      name: 'some channels, every filter',
      fragment: (ctx) => sqlOf(adConditions(someChannels(ctx), { adaccountId: 'act_1', campaignId: '1201', adgroupId: '3401', adId: '5601' })),
    },
  ],
  'analytics/queries/ads/ad-names.ts': [
    { name: 'two campaigns (a repeated and an empty id dropped)', run: (ch, ctx) => adNames(ch, ctx, { campaigns: ['1201', '', '1202', '1201'], adgroups: [], ads: [] }) },
    { name: 'a campaign, an ad group and an ad', run: (ch, ctx) => adNames(ch, ctx, { campaigns: ['1201'], adgroups: ['3401'], ads: ['5601'] }) },
  ],
  'analytics/queries/ads/list-ads.ts': [
    { name: 'every channel, first page', run: (ch, ctx) => listAds(ch, everyChannel(ctx), { page: PAGE }) },
    { name: 'some channels, one campaign, second page', run: (ch, ctx) => listAds(ch, someChannels(ctx), { page: SECOND_PAGE, campaignId: '1201' }) },
  ],
  'analytics/queries/ads/total-ads.ts': [
    { name: 'every channel', run: (ch, ctx) => totalAds(ch, everyChannel(ctx), {}) },
    { name: 'some channels, one ad', run: (ch, ctx) => totalAds(ch, someChannels(ctx), { adId: '5601' }) },
  ],
  'analytics/queries/attribution/chain-counts.ts': [
    {
      name: 'every channel, conversion dates over 7 days',
      run: (ch, ctx) => chainCounts(ch, {
        workspaceId: ctx.workspaceId, range: OCTOBER, visibleChannels: null, excludedTransactions: [],
        attribution: { windowDays: 7, dateMode: 'conversion', excludedChannels: [] },
      }),
    },
    {
      name: 'a key that sees Meta and organic, click dates over 28 days, email and two transactions left out',
      run: (ch, ctx) => chainCounts(ch, {
        workspaceId: ctx.workspaceId, range: OCTOBER, visibleChannels: channelsOfAll(['meta', 'organic']), excludedTransactions: ['T-1', 'T-2'],
        attribution: { windowDays: 28, dateMode: 'click', excludedChannels: ['email'] },
      }),
    },
  ],
  'analytics/queries/attribution/visitor-patterns.ts': [
    {
      name: 'every channel and name, conversion dates over 7 days',
      run: (ch, ctx) => visitorPatterns(ch, {
        workspaceId: ctx.workspaceId, range: OCTOBER, visibleChannels: null, excludedTransactions: [], conversionNames: ['*'],
        attribution: { windowDays: 7, dateMode: 'conversion', excludedChannels: [] },
      }),
    },
    {
      name: 'a key that sees Meta and organic, purchases and sign_up*, click dates over 28 days, email and two transactions left out',
      run: (ch, ctx) => visitorPatterns(ch, {
        workspaceId: ctx.workspaceId, range: OCTOBER, visibleChannels: channelsOfAll(['meta', 'organic']), excludedTransactions: ['T-1', 'T-2'],
        conversionNames: ['purchase', 'sign_up*'], attribution: { windowDays: 28, dateMode: 'click', excludedChannels: ['email'] },
      }),
    },
  ],
  'analytics/queries/attribution/conversion-credits.ts': [
    {
      name: 'every model for an admin key, 7 days',
      run: (ch, ctx) => conversionCredits(ch, {
        workspaceId: ctx.workspaceId, transactionId: 'T-1001', convStartMs: OCTOBER.startMs, convEndMs: OCTOBER.endMs,
        attribution: { model: 'last_click', windowDays: 7, dateMode: 'conversion', excludedChannels: [], excludedSources: [] },
        visibleChannels: null, excludedTransactions: [], models: ATTRIBUTION_MODELS,
        bound: {
          mk_sources: ['google', 'meta'], mk_effects: [1, 0.5], mk_restricted: 0, mk_channels: [],
          dd_fallback: 0, dd_sources: ['google', 'meta'], dd_lifts: [0.02, 0.01], dd_baseline: 0.01, dd_restricted: 0, dd_channels: [],
          dd_cal_sources: ['meta'], dd_cal_starts: ['2026-10-01 00:00:00.000'], dd_cal_ends: ['2026-10-15 23:59:59.999'], dd_cal_lifts: [0.005],
        },
      }),
    },
    {
      name: 'a key that sees Meta and organic, 28 days, email and two transactions left out',
      run: (ch, ctx) => conversionCredits(ch, {
        workspaceId: ctx.workspaceId, transactionId: 'T-1001', convStartMs: OCTOBER.startMs, convEndMs: OCTOBER.endMs,
        attribution: { model: 'linear', windowDays: 28, dateMode: 'conversion', excludedChannels: ['email'], excludedSources: ['email'] },
        visibleChannels: channelsOfAll(['meta', 'organic']), excludedTransactions: ['T-1', 'T-2'], models: ['linear', 'markov'],
        bound: { mk_sources: ['meta'], mk_effects: [1], mk_restricted: 1, mk_channels: channelsOfAll(['meta', 'organic']) },
      }),
    },
  ],
  'analytics/queries/conversions/conversion-path.ts': [
    {
      name: 'last click over 7 days',
      run: (ch, ctx) => conversionPath(ch, {
        workspaceId: ctx.workspaceId,
        key: { sessionId: 9007199254740993n, dt: '2026-10-14 09:30:00.000', name: 'purchase', transactionId: 'T-1001' },
        attribution: { model: 'last_click', windowDays: 7, dateMode: 'conversion', excludedChannels: [], excludedSources: [] },
      }),
    },
    {
      name: 'linear over 28 days, email excluded',
      run: (ch, ctx) => conversionPath(ch, {
        workspaceId: ctx.workspaceId,
        key: { sessionId: 42n, dt: '2026-10-14 09:30:00.000', name: 'purchase', transactionId: '' },
        attribution: { model: 'linear', windowDays: 28, dateMode: 'conversion', excludedChannels: ['email'], excludedSources: ['email'] },
      }),
    },
  ],
  'analytics/queries/conversions/conversion-scope.ts': [
    { name: 'every channel, no filter', fragment: (ctx) => attributedConversions(everyChannel(ctx)) },
    {
      name: 'some channels, every filter',
      fragment: (ctx) => attributedConversions(someChannels(ctx), {
        name: 'purchase*', transactionId: 'T-1001', customerId: 'C-7', isNewCustomer: 1, excluded: ['T-1', 'T-2'],
      }),
    },
  ],
  'analytics/queries/conversions/group-conversions.ts': [
    { name: 'by channel and date', run: (ch, ctx) => groupConversions(ch, everyChannel(ctx), { dimensions: ['adv_source', 'date'], page: PAGE }) },
    {
      name: 'by date in New York time',
      run: (ch, ctx) => groupConversions(ch, { ...everyChannel(ctx), range: { ...OCTOBER, timeZone: 'America/New_York' } }, { dimensions: ['date'], page: PAGE }),
    },
    {
      name: 'by UTM campaign and country, new customers of some channels',
      run: (ch, ctx) => groupConversions(ch, someChannels(ctx), { dimensions: ['utm_campaign', 'country_code'], page: SECOND_PAGE, isNewCustomer: 1 }),
    },
  ],
  'analytics/queries/conversions/name-counts.ts': [
    { name: 'every channel', run: (ch, ctx) => conversionNameCounts(ch, everyChannel(ctx)) },
    { name: 'some channels', run: (ch, ctx) => conversionNameCounts(ch, someChannels(ctx)) },
  ],
  'analytics/queries/conversions/new-conversions.ts': [
    { name: 'after a watermark', run: (ch, ctx) => newConversions(ch, ctx.workspaceId, OCTOBER.startMs, OCTOBER.endMs, ['*']) },
    { name: 'after a watermark, purchases and sign_up* names only', run: (ch, ctx) => newConversions(ch, ctx.workspaceId, OCTOBER.startMs, OCTOBER.endMs, ['purchase', 'sign_up*']) },
  ],
  'analytics/queries/conversions/newest-conversion.ts': [
    { name: 'up to a moment', run: (ch, ctx) => newestConversion(ch, ctx.workspaceId, OCTOBER.endMs) },
  ],
  'analytics/queries/conversions/list-conversions.ts': [
    { name: 'every channel, first page', run: (ch, ctx) => listConversions(ch, everyChannel(ctx), { page: PAGE }) },
    { name: 'some channels, one name, second page', run: (ch, ctx) => listConversions(ch, someChannels(ctx), { page: SECOND_PAGE, name: 'purchase' }) },
    { name: 'every channel, newest first (the dashboard)', run: (ch, ctx) => listConversions(ch, everyChannel(ctx), { page: PAGE, newestFirst: true }) },
  ],
  'analytics/queries/events/list-events.ts': [
    { name: 'every channel, first page', run: (ch, ctx) => listEvents(ch, everyChannel(ctx), { page: PAGE }) },
    {
      name: 'some channels, one visitor and session, wildcard name',
      run: (ch, ctx) => listEvents(ch, someChannels(ctx), { page: SECOND_PAGE, name: 'add_*', sessionId: 42n, visitorId: 18446744073709551615n }),
    },
  ],
  'analytics/queries/geo/geo-breakdown.ts': [
    { name: 'countries', run: (ch, ctx) => geoBreakdown(ch, everyChannel(ctx), { level: 'country', limit: 50, names: ['*'] }) },
    { name: 'cities of some channels', run: (ch, ctx) => geoBreakdown(ch, someChannels(ctx), { level: 'city', limit: 20, names: ['purchase'] }) },
  ],
  'analytics/queries/geo/geo-test-candidates.ts': [
    { name: 'countries', run: (ch, ctx) => geoTestCandidates(ch, everyChannel(ctx), { level: 'country', days: 31, names: ['*'] }) },
    { name: 'cities of some channels', run: (ch, ctx) => geoTestCandidates(ch, someChannels(ctx), { level: 'city', days: 31, names: ['purchase'] }) },
  ],
  'analytics/queries/health/ad-freshness.ts': [
    { name: 'every channel', run: (ch, ctx) => adFreshness(ch, everyChannel(ctx)) },
    { name: 'some channels', run: (ch, ctx) => adFreshness(ch, someChannels(ctx)) },
  ],
  'analytics/queries/health/pixel-health.ts': [
    { name: 'the workspace at a fixed now', rows: [{}], run: (ch, ctx) => pixelHealth(ch, everyChannel(ctx), NOW) },
  ],
  'analytics/queries/reconciliation/books-by-day.ts': [
    { name: 'default settings', run: (ch, ctx) => booksByDay(ch, ctx.workspaceId, OCTOBER, { excludedIds: [], includeUnattributed: false, netMerchandise: false, refundNetting: false }) },
    {
      name: 'excluded ids, unattributed orders included, net merchandise, refunds netted',
      run: (ch, ctx) => booksByDay(ch, ctx.workspaceId, OCTOBER, { excludedIds: ['T1', '#1001'], includeUnattributed: true, netMerchandise: true, refundNetting: true }),
    },
  ],
  'analytics/queries/imports/count-workspace-rows.ts': [
    { name: 'one workspace', run: (ch, ctx) => countWorkspaceRows(ch, ctx.workspaceId) },
  ],
  'analytics/queries/journeys/touchpoint-paths.ts': [
    { name: 'every channel over 28 days', run: (ch, ctx) => touchpointPaths(ch, everyChannel(ctx), { windowDays: 28, organicVisible: true, limit: 20, names: ['*'] }) },
    { name: 'some channels, organic not visible', run: (ch, ctx) => touchpointPaths(ch, someChannels(ctx), { windowDays: 7, organicVisible: false, limit: 10, names: ['purchase'] }) },
  ],
  'analytics/queries/library/ad-creatives.ts': [
    { name: 'two ads of every channel', run: (ch, ctx) => adCreatives(ch, everyChannel(ctx), ['5601', '5602']) },
    { name: 'one ad of some channels', run: (ch, ctx) => adCreatives(ch, someChannels(ctx), ['5601']) },
  ],
  'analytics/queries/library/ad-sources.ts': [
    { name: 'two ads', run: (ch, ctx) => adSources(ch, ctx.workspaceId, ['5601', '5602']) },
  ],
  'analytics/queries/settings/excluded-transactions.ts': [
    { name: 'a list the engine holds whole', rows: [{ ids: '2' }], run: (ch, ctx) => ensureExcludedList(ch, ctx.workspaceId, ['T-1001', '#1002']) },
  ],
  'analytics/queries/live/live-activity.ts': [
    { name: 'every channel', run: (ch, ctx) => liveActivity(ch, everyChannel(ctx), { recent: 20 }) },
    { name: 'some channels', run: (ch, ctx) => liveActivity(ch, someChannels(ctx), { recent: 5 }) },
  ],
  'analytics/queries/products/product-sales.ts': [
    products('every source, the workspace settings', {}),
    products('paid social, any click (each order\'s capped share for the products)', { source: ['meta', 'tiktok', 'pinterest', 'snapchat'], attribution_model: 'any_click' }),
    products('one campaign, a restricted key, second page', { campaign: '1201', limit: 50, offset: 50 }, META_WITH_PROFIT),
    {
      name: 'unattributed orders included',
      run: async (ch, ctx) => {
        await updateSettings(ctx.db, ctx.workspaceId, { include_unattributed: true });
        try {
          await products('', {}).run(ch, ctx);
        } finally {
          await updateSettings(ctx.db, ctx.workspaceId, { include_unattributed: false });
        }
      },
    },
  ],
  'analytics/queries/loyalty/repeat-customers.ts': [
    { name: 'the workspace', run: (ch, ctx) => repeatCustomers(ch, everyChannel(ctx)) },
  ],
  'analytics/queries/forms/count-submissions.ts': [
    { name: 'the workspace', run: (ch, ctx) => countFormSubmissions(ch, ctx.workspaceId) },
  ],
  'analytics/queries/forms/list-submissions.ts': [
    { name: 'since October', run: (ch, ctx) => listFormSubmissions(ch, ctx.workspaceId, OCTOBER.startMs) },
  ],
  'analytics/queries/forms/newest-submissions.ts': [
    { name: 'second page', run: (ch, ctx) => newestFormSubmissions(ch, { workspaceId: ctx.workspaceId, formId: 3, page: SECOND_PAGE }) },
  ],
  'analytics/queries/loyalty/program-members.ts': [
    { name: 'two points per unit from October', run: (ch, ctx) => programFigures(ch, { workspaceId: ctx.workspaceId, startMs: OCTOBER.startMs, pointsPerUnit: 2 }) },
  ],
  'analytics/queries/offers/cart-abandonment.ts': [
    { name: 'every channel', run: (ch, ctx) => cartAbandonment(ch, everyChannel(ctx), ['*']) },
    { name: 'some channels', run: (ch, ctx) => cartAbandonment(ch, someChannels(ctx), ['purchase']) },
  ],
  'analytics/queries/creators/creator-performance.ts': [
    { name: 'two stored tracking codes', run: (ch, ctx) => creatorPerformance(ch, { workspaceId: ctx.workspaceId, range: OCTOBER, known: ['4821', 'maya'] }) },
  ],
  'analytics/queries/segments/segment-members.ts': [
    {
      name: 'a segment on orders and one on channels',
      rows: [{ members: [3, 1] }],
      run: (ch, ctx) => countSegmentMembers(ch, {
        workspaceId: ctx.workspaceId, nowMs: NOW,
        segments: [
          [{ field: 'total_spent', operator: 'greater_than', value: 100 }, { field: 'country_code', operator: 'in', value: ['DE', 'AT'] }],
          [{ field: 'adv_source', operator: 'equals', value: 'meta' }, { field: 'coupon_code', operator: 'contains', value: 'WELCOME' }],
        ],
      }),
    },
  ],
  'analytics/queries/geo/geo-test-daily.ts': [
    { name: 'cities, some channels', run: (ch, ctx) => geoTestDaily(ch, someChannels(ctx), { level: 'city', treatment: ['Berlin', 'Munich'], control: ['Vienna'] }) },
  ],
  'analytics/queries/ads/known-ad-ids.ts': [
    { name: 'two ids', run: (ch, ctx) => knownAdIds(ch, ctx.workspaceId, ['m1', 'g-2']) },
  ],
  'analytics/queries/offers/coupon-performance.ts': [
    { name: 'every channel', run: (ch, ctx) => couponPerformance(ch, everyChannel(ctx), { limit: 20, names: ['*'] }) },
    { name: 'some channels', run: (ch, ctx) => couponPerformance(ch, someChannels(ctx), { limit: 5, names: ['purchase', 'sign_up*'] }) },
  ],
  'analytics/queries/surveys/answers-by-source.ts': [
    {
      name: 'last click over 7 days, every channel',
      run: (ch, ctx) => answersBySource({ ch, db: ctx.db }, {
        workspaceId: ctx.workspaceId, surveyId: 3, question: 0, range: OCTOBER,
        attribution: { model: 'last_click', windowDays: 7, dateMode: 'conversion', excludedChannels: [], excludedSources: [] },
        channels: null, excludedTransactions: [], conversionNames: ['*'],
      }),
    },
    {
      name: 'linear over 28 days, email excluded, a reader of some channels, an excluded order',
      run: (ch, ctx) => answersBySource({ ch, db: ctx.db }, {
        workspaceId: ctx.workspaceId, surveyId: 3, question: 2, range: OCTOBER,
        attribution: { model: 'linear', windowDays: 28, dateMode: 'conversion', excludedChannels: ['email'], excludedSources: ['email'] },
        channels: channelsOfAll(['meta', 'organic']), excludedTransactions: ['T-9'], conversionNames: ['purchase'],
      }),
    },
  ],
  'analytics/queries/surveys/count-responses.ts': [
    { name: 'the workspace', run: (ch, ctx) => countSurveyResponses(ch, ctx.workspaceId) },
  ],
  'analytics/queries/surveys/list-responses.ts': [
    { name: 'second page', run: (ch, ctx) => listSurveyResponses(ch, { workspaceId: ctx.workspaceId, surveyId: 3, page: SECOND_PAGE }) },
  ],
  'analytics/queries/sessions/list-sessions.ts': [
    { name: 'every channel, first page', run: (ch, ctx) => listSessions(ch, everyChannel(ctx), { page: PAGE }) },
    { name: 'some channels, one visitor and session', run: (ch, ctx) => listSessions(ch, someChannels(ctx), { page: SECOND_PAGE, sessionId: 42n, visitorId: 7n }) },
  ],
  'analytics/queries/sessions/session-sql.ts': [
    { name: 'sessions started in the range', fragment: (ctx) => { const [sql, params] = sessionsStartedIn(everyChannel(ctx)); return { sql, params }; } },
    { name: 'every landing column', fragment: () => ({ sql: landingColumns('l_'), params: {} }) },
  ],
  'analytics/queries/tool-common/sessions-in-range.ts': [
    { name: 'every channel, channel column only', fragment: (ctx) => sessionsInRange(everyChannel(ctx), []) },
    { name: 'some channels, with country and campaign', fragment: (ctx) => sessionsInRange(someChannels(ctx), ['country_code', 'utm_campaign']) },
  ],
  'analytics/queries/traffic/hourly-activity.ts': [
    { name: 'every channel in UTC', run: (ch, ctx) => hourlyActivity(ch, everyChannel(ctx), ['*']) },
    { name: 'some channels in Berlin time', run: (ch, ctx) => hourlyActivity(ch, { ...someChannels(ctx), range: { ...OCTOBER, timeZone: 'Europe/Berlin' } }, ['purchase', 'sign_up*']) },
  ],
  'analytics/queries/tryon/find-catalog-product.ts': [
    { name: 'one variant', run: (ch, ctx) => findCatalogProduct(ch, { workspaceId: ctx.workspaceId, productHandle: 'linen-shirt', variantId: '44001' }) },
  ],
  'analytics/queries/weather/weather-sales.ts': [
    { name: 'every place', run: (ch, ctx) => weatherSales(ch, everyChannel(ctx), { names: ['*'] }) },
    { name: 'one city, some channels', run: (ch, ctx) => weatherSales(ch, someChannels(ctx), { countryCode: 'DE', city: 'Berlin', names: ['purchase'] }) },
  ],
  'collect/queries/find-product-costs.ts': [
    { name: 'two variants', run: (ch, ctx) => findProductCosts(ch, { workspaceId: ctx.workspaceId, variantIds: ['44001', '44002'] }) },
  ],
  'collect/queries/find-stored-order.ts': [
    { name: 'one order', run: (ch, ctx) => findStoredOrder(ch, { workspaceId: ctx.workspaceId, transactionId: 'T-1001' }) },
  ],
  'collect/queries/find-stored-transactions.ts': [
    { name: 'transactions of two workspaces', run: (ch, ctx) => findStoredTransactions(ch, { workspaceIds: [ctx.workspaceId, ctx.workspaceId + 1], transactionIds: ['T-1001', 'T-1002'] }) },
  ],
};

function sqlOf(conditions: { sql(): string; params: QueryParams }): { sql: string; params: QueryParams } {
  return { sql: conditions.sql(), params: conditions.params };
}
