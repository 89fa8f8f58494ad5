import crypto from 'node:crypto';
import type { Clickhouse, QueryParams } from '../../store/clickhouse.ts';
import type { AppDatabase } from '../../store/app-db.ts';
import { getSettings, getSettingsAndVersion } from '../../store/app/workspaces.ts';
import type { Visibility } from '../permissions.ts';
import { PIXEL_SOURCES, channelsOfAll } from '../sources.ts';
import { resolveRange, undated, type Range, type Undated } from '../../kit/calendar/range.ts';
import { rangeInfo } from '../../kit/paging.ts';
import { DIMENSIONS } from '../dimensions.ts';
import { MODELS, type ModelName } from '../attribution/index.ts';
import { METRICS, formatMetric, type MetricContext, type Parts } from '../metrics.ts';
import { planReport, type ReportPlan, type ReportRequest } from './plan.ts';
import { ensureExcludedList, excludedListId } from '../queries/settings/excluded-transactions.ts';
import type { ResultCache } from '../../kit/result-cache.ts';
import type { WorkspaceSettings } from '../../store/app/settings.ts';
import { REPORT_PARTS, buildReportSql, expensesSql, partPositions, type ReportPart } from './build-sql.ts';

export { type ReportRequest } from './plan.ts';

export const QUERY_NAME = 'report';

/**
 * Excluded ids shown in settings_applied: a list may hold 100,000, which would make every answer
 * of a tool megabytes long; the count says how many the numbers left out.
 */
const SHOWN_EXCLUDED_IDS = 100;

export interface ReportAuth {
  workspaceId: number;
  visibility: Visibility;
}

export type ReportRow = Record<string, string | number | null>;
export type ReportTotals = Record<string, number | null>;

export interface ReportPagination {
  limit: number;
  offset: number;
  has_more: boolean;
  next_offset: number | null;
  start_date: string;
  end_date: string;
  total_rows: number;
  sources: string[];
  ignored_sources: string[];
}

/** The settings the numbers were computed with (workspace settings merged with the request). */
export interface SettingsApplied {
  attribution_model: string;
  attribution_window: number;
  attribution_date: string;
  ignore_sources: string[];
  include_unattributed: boolean;
  net_merchandise_revenue: boolean;
  refund_netting: boolean;
  /** The first SHOWN_EXCLUDED_IDS of the list; `excluded_transaction_count` says how many apply. */
  excluded_transaction_ids: string[];
  excluded_transaction_count: number;
  platform_revenue: string;
  new_customer_correction: boolean;
  payment_fee_percent: number;
  payment_fee_fixed: number;
  currency: string;
  timezone: string;
  /** The conversion names counted: the request's name filter, else the workspace's conversion_names. */
  conversion_names: string[];
  /** data_driven only: `linear` when the scope had too little data to fit and linear credited instead, else null. */
  attribution_fallback?: string | null;
  /** data_driven only: the sources whose fitted lift a lift test replaced for part of the range. */
  calibrated_sources?: string[];
}

export interface ReportResult {
  rows: ReportRow[];
  totals: ReportTotals;
  pagination: ReportPagination;
  settings_applied: SettingsApplied;
}

type RawRow = Record<string, string | number | number[]>;

/**
 * Parts of one row (`t_parts`) or of the totals (`all_parts`) by their array positions; session
 * parts are null on rows without sessions, expenses are a total only.
 */
function toParts(values: number[] | undefined, positions: Record<ReportPart, number>, expenses: number, withSessions: boolean): Parts {
  const parts = { expenses } as Parts;
  for (const part of REPORT_PARTS) parts[part] = Number(values?.[positions[part]] ?? 0);
  if (!withSessions) {
    parts.sessions = null;
    parts.add_to_carts = null;
    parts.checkouts = null;
  }
  return parts;
}

/**
 * The plan's metrics from a row's parts. The incremental ones are null unless the model split off
 * what would have happened anyway, which data_driven does only when it fitted (not in its linear fallback).
 */
function metricsOf(plan: ReportPlan, parts: Parts, ctx: MetricContext & { incremental: boolean }): Record<string, number | null> {
  return Object.fromEntries(plan.metrics.map((m) => [m, !ctx.incremental && 'incremental' in METRICS[m] ? null : formatMetric(m, parts, ctx)]));
}

/**
 * The /v3/report core, shared by the HTTP route, the tools and the dashboard: reads the workspace
 * settings afresh, checks and plans the request, runs the rows and totals queries in ClickHouse
 * and shapes them. Throws InvalidInput or AccessDenied for a refused request. With `results` the
 * answer is kept under the workspace's data version (docs/architecture.md, "Result cache").
 * This form resolves the request's own dates (the data API's edge); `runReportIn` takes a range.
 */
export async function runReport(
  stores: { ch: Clickhouse; db: AppDatabase; results?: ResultCache },
  auth: ReportAuth,
  request: ReportRequest,
  now = Date.now(),
): Promise<ReportResult> {
  return runReportIn(stores, auth, resolveRange(request, now), undated(request), now);
}

/**
 * `runReport` over a range its caller resolved already (the dashboard's store calendar, a
 * period before another); the request carries no dates to resolve again.
 */
export async function runReportIn(
  stores: { ch: Clickhouse; db: AppDatabase; results?: ResultCache },
  auth: ReportAuth,
  range: Range,
  request: Undated<ReportRequest>,
  now = Date.now(),
): Promise<ReportResult> {
  // The version of the settings' moment, read before the rows: an answer kept under it is never older than it.
  const { settings, version } = await getSettingsAndVersion(stores.db, auth.workspaceId);
  const plan = planReport({ workspaceId: auth.workspaceId, visibility: auth.visibility, settings, range, request, nowMs: now });
  const compute = () => computeReport(stores, auth, plan, range, settings);
  return stores.results ? stores.results.get(cacheKey(version, auth, plan), compute) : compute();
}

/**
 * Everything an answer depends on besides the stored rows: the plan (range, metrics, model,
 * channels, page...), the settings it carries (the excluded ids by their list's hash, as the
 * engine reads them), what the key sees, and the data version the rows were read at.
 */
function cacheKey(version: number, auth: ReportAuth, plan: ReportPlan, models?: readonly ModelName[]): string {
  const settings = { ...plan.settings, excluded_transaction_ids: excludedListId(plan.settings.excluded_transaction_ids) };
  const channels = auth.visibility.channels && [...auth.visibility.channels].sort();
  const key = JSON.stringify(['report', plan.workspaceId, version, channels, auth.visibility.profit, { ...plan, settings }, ...(models ? [models] : [])]);
  return crypto.createHash('sha256').update(key).digest('base64url');
}

/** A request checked and planned, with the values its attribution model binds: what a query on the report core runs on. */
export interface PreparedReport {
  plan: ReportPlan;
  settings: WorkspaceSettings;
  range: Range;
  bound: QueryParams | undefined;
}

/**
 * For queries beside the report on its credits (product sales): reads the workspace settings
 * afresh, checks and plans the request over the range and binds its model's values. Throws
 * InvalidInput or AccessDenied for a refused request.
 */
export async function prepareReport(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  range: Range,
  request: Undated<ReportRequest>,
  now = Date.now(),
): Promise<PreparedReport> {
  const settings = await getSettings(stores.db, auth.workspaceId);
  const plan = planReport({ workspaceId: auth.workspaceId, visibility: auth.visibility, settings, range, request, nowMs: now });
  return { plan, settings, range, bound: await bindModel(stores, auth, plan, settings) };
}

/** The values the plan's model binds (markov's chain, data_driven's lifts), once the excluded ids are where the engine reads them. */
async function bindModel(stores: { ch: Clickhouse; db: AppDatabase }, auth: ReportAuth, plan: ReportPlan, settings: WorkspaceSettings): Promise<QueryParams | undefined> {
  // Before the model binds its values: data_driven learns its chain without the excluded ids too.
  await ensureExcludedList(stores.ch, auth.workspaceId, settings.excluded_transaction_ids);
  return MODELS[plan.attribution.model].bind?.({
    ch: stores.ch,
    db: stores.db,
    scope: plan,
    attribution: plan.attribution,
    visibleChannels: auth.visibility.channels && [...auth.visibility.channels],
    excludedTransactions: settings.excluded_transaction_ids,
    // The conversions the report counts are the ones a learned model learns buying from.
    conversionNames: plan.conversionNames,
  });
}

async function computeReport(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  plan: ReportPlan,
  range: Range,
  settings: WorkspaceSettings,
): Promise<ReportResult> {
  const bound = await bindModel(stores, auth, plan, settings);
  const built = buildReportSql(plan, { bound });
  const params = { ...built.params, ...bound };
  const rawRows = await stores.ch.query<RawRow>(QUERY_NAME, built.sql, params, { settings: built.settings });
  // Totals and the row count ride on every row; a page past the end, or row keys that pick no
  // row, need one row of the whole scope to read them.
  let totalsRow = rawRows[0];
  if (!totalsRow && (plan.offset > 0 || plan.rowKeys)) {
    const whole = buildReportSql({ ...plan, rowKeys: null }, { bound });
    [totalsRow] = await stores.ch.query<RawRow>(QUERY_NAME, whole.sql, { ...whole.params, ...bound, offset: 0, limit: 1 }, { settings: whole.settings });
  }
  if (!totalsRow && plan.includeExpenses) {
    [totalsRow] = await stores.ch.query<RawRow>(`${QUERY_NAME}-expenses`, expensesSql(), params);
  }
  return shapeReport({ plan, settings, range, bound }, rawRows, totalsRow);
}

/**
 * The answer of a planned report from its statement's rows and the row carrying the totals; with
 * `model`, the rows of that model in a statement of several (buildReportSql's `models`).
 */
function shapeReport(prepared: PreparedReport, rawRows: RawRow[], totalsRow: RawRow | undefined, model?: ModelName): ReportResult {
  const { plan, settings, range } = prepared;
  const applied = settingsApplied(prepared);
  const incremental = MODELS[plan.attribution.model].remainder === true && !applied.attribution_fallback;
  const ctx = { refundsNetted: settings.refund_netting, incremental };
  const dimension = plan.breakdown ? DIMENSIONS[plan.breakdown] : null;
  // A breakdown sessions cannot have (coupon_code) reads no sessions at all: its totals say null as its rows do, not 0.
  const rowsHaveSessions = dimension === null || dimension.keys.every((k) => k.session !== null);
  const positions = partPositions(plan, model);
  const totalParts = toParts(totalsRow?.all_parts as number[] | undefined, positions.total, Number(totalsRow?.all_expenses ?? 0), rowsHaveSessions);
  const totals = metricsOf(plan, totalParts, ctx);

  const rows = rawRows.map((raw) => {
    // Without breakdown and interval the one row is the whole scope: it equals the totals.
    if (!dimension && !plan.interval) return { ...totals };
    const row: ReportRow = {};
    if (plan.interval) row.date = String(raw.date);
    for (const key of dimension?.keys ?? []) row[key.name] = String(raw[`k_${key.name}`]);
    if (dimension && 'label' in dimension) row[dimension.label.name] = String(raw.label);
    return { ...row, ...metricsOf(plan, toParts(raw.t_parts as number[], positions.row, 0, rowsHaveSessions), ctx) };
  });
  const totalRows = Number(totalsRow?.total_rows ?? 0);
  const hasMore = plan.offset + rows.length < totalRows;
  return {
    rows,
    totals,
    pagination: {
      limit: plan.limit,
      offset: plan.offset,
      has_more: hasMore,
      next_offset: hasMore ? plan.offset + plan.limit : null,
      ...rangeInfo(range),
      total_rows: totalRows,
      sources: (plan.channels ?? channelsOfAll(PIXEL_SOURCES)).filter((c) => c !== ''),
      ignored_sources: plan.attribution.excludedChannels.filter((c) => c !== ''),
    },
    settings_applied: applied,
  };
}

/** The settings a planned report's numbers were computed with, as every answer on the report core says them. */
export function settingsApplied({ plan, settings, range, bound }: PreparedReport): SettingsApplied {
  return {
    attribution_model: plan.attribution.model,
    attribution_window: plan.attribution.windowDays,
    attribution_date: plan.attribution.dateMode,
    ignore_sources: plan.attribution.excludedSources,
    include_unattributed: settings.include_unattributed,
    net_merchandise_revenue: settings.net_merchandise_revenue,
    refund_netting: settings.refund_netting,
    excluded_transaction_ids: settings.excluded_transaction_ids.slice(0, SHOWN_EXCLUDED_IDS),
    excluded_transaction_count: settings.excluded_transaction_ids.length,
    platform_revenue: settings.platform_revenue,
    new_customer_correction: settings.new_customer_correction,
    payment_fee_percent: settings.payment_fee_percent,
    payment_fee_fixed: settings.payment_fee_fixed,
    currency: settings.currency,
    timezone: range.timeZone,
    conversion_names: plan.conversionNames,
    ...MODELS[plan.attribution.model].applied?.(bound ?? {}),
  };
}

/**
 * The same report over `range` under each of `models`, in that order: what running it once per
 * model answers, computed in one statement, so the sessions, buyer links, paths and conversions
 * are read once and only the models' weights are computed per model. Every model binds its values first.
 */
export async function runReportModels(
  stores: { ch: Clickhouse; db: AppDatabase; results?: ResultCache },
  auth: ReportAuth,
  range: Range,
  request: Undated<ReportRequest>,
  models: readonly ModelName[],
  now = Date.now(),
): Promise<ReportResult[]> {
  const { settings, version } = await getSettingsAndVersion(stores.db, auth.workspaceId);
  const plans = models.map((model) =>
    planReport({ workspaceId: auth.workspaceId, visibility: auth.visibility, settings, range, request: { ...request, attribution_model: model }, nowMs: now }));
  const compute = () => computeModels(stores, auth, plans, models, range, settings);
  return stores.results ? stores.results.get(cacheKey(version, auth, plans[0]!, models), compute) : compute();
}

async function computeModels(
  stores: { ch: Clickhouse; db: AppDatabase },
  auth: ReportAuth,
  plans: ReportPlan[],
  models: readonly ModelName[],
  range: Range,
  settings: WorkspaceSettings,
): Promise<ReportResult[]> {
  const bound: QueryParams = {};
  const boundEach: QueryParams[] = [];
  for (const plan of plans) {
    const values = (await bindModel(stores, auth, plan, settings)) ?? {};
    // Every model's values go into one statement: a name two models bind would be one parameter.
    const shared = Object.keys(values).filter((name) => name in bound);
    if (shared.length) throw new Error(`attribution models bind the same parameter names: ${shared.join(', ')}`);
    Object.assign(bound, values);
    boundEach.push(values);
  }
  const built = buildReportSql(plans[0]!, { models, bound });
  const rawRows = await stores.ch.query<RawRow>(QUERY_NAME, built.sql, { ...built.params, ...bound }, { settings: built.settings });
  return Promise.all(plans.map((plan, i) => {
    const rows = rawRows.filter((r) => Number(r.k_model) === i + 1);
    // A model without a row on a page past the end, or with expenses to total, is answered alone,
    // as runReport answers it: its totals need a row of their own.
    if (!rows.length && (plan.offset > 0 || plan.includeExpenses)) return computeReport(stores, auth, plan, range, settings);
    return Promise.resolve(shapeReport({ plan, settings, range, bound: boundEach[i] }, rows, rows[0], models[i]));
  }));
}
