import type { Range } from '../../kit/calendar/range.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../kit/paging.ts';
import { AccessDenied, InvalidInput } from '../../kit/errors.ts';
import { oneOf } from '../../kit/choices.ts';
import type { Visibility } from '../permissions.ts';
import type { QueryScope } from '../query-scope.ts';
import { NO_PROFIT_ACCESS, pixelChannels, pixelRefusal } from '../permissions.ts';
import { PIXEL_SOURCES } from '../sources.ts';
import type { SegmentRule } from '../segment-fields.ts';
import { DAY_MS } from '../../kit/calendar/days.ts';
import type { WorkspaceSettings } from '../../store/app/settings.ts';
import { METRICS, METRIC_NAMES, DEFAULT_METRICS, type MetricName } from '../metrics.ts';
import { BREAKDOWNS, DIMENSIONS, INTERVAL_NAMES, type Breakdown, type Interval } from '../dimensions.ts';
import { planAttribution, type AttributionPlan, type AttributionRequest } from '../attribution/index.ts';
import { PURCHASE, countedNames, countsName } from '../conversion-names.ts';

/**
 * A report request as both the HTTP route and the `analytics.query` tool pass it: already split
 * into values, not yet checked. Anything left out falls back to the workspace settings.
 */
export interface ReportRequest extends AttributionRequest {
  start_date?: string;
  end_date?: string;
  /** The zone (canonical IANA name) whose calendar days the dates and buckets are; UTC when left out. */
  timezone?: string;
  metrics?: string[];
  breakdown?: string;
  interval?: string;
  /** Channel restriction (source values, e.g. meta, creator, organic). */
  source?: string[];
  /** Conversion-name filter, `*` wildcard; without it the workspace's `conversion_names` count. */
  name?: string;
  /** Campaign, ad group and ad id the rows, credits and ads must carry: drill-down below a source. */
  campaign?: string;
  adgroup?: string;
  ad?: string;
  /** The metric rows are ordered by (added to the metrics when not among them), and in which direction. */
  sort_by?: string;
  order?: string;
  /**
   * Only the rows whose keys are one of these: the interval's `date` first when interval is set,
   * then the breakdown's keys in their order; totals still cover the whole scope. Not a parameter
   * of any surface: the comparison of two periods reads the rows it pairs with a page through it.
   */
  row_keys?: string[][];
  /**
   * The rules of a segment (segment-fields.ts): only its customers' conversions count. Not a
   * parameter of any surface: analytics.query's segment_id reads a stored segment's rules.
   */
  segment_rules?: SegmentRule[];
  /** Only rows whose breakdown keys are all set: the ads of an ad breakdown, without the credits and sessions that name no ad. */
  keyed_rows?: boolean;
  limit?: number;
  offset?: number;
}

/** Row order of a sorted report: by the metric's value, nulls last either way. */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * What the report query needs, every choice made. Its scope's channels are those a row may carry
 * (key visibility and source filter); the report core builds it, from the caller and the request.
 */
export interface ReportPlan extends QueryScope {
  metrics: MetricName[];
  breakdown: Breakdown | null;
  interval: Interval | null;
  attribution: AttributionPlan;
  /**
   * The conversion names counted (conversion-names.ts): the request's `name`, else the workspace's
   * `conversion_names`; `*` matches any run of characters. Models that learn from conversions
   * learn from these.
   */
  conversionNames: string[];
  /** Campaign, ad group and ad ids every credit, session and ads row must carry; null: any. */
  campaign: string | null;
  adgroup: string | null;
  ad: string | null;
  /**
   * Only the conversions (and unattributed orders) of the customers matching these rules, as of
   * `nowMs`; `channels` are those an adv_source rule may see (null: every one). Null: everyone's.
   */
  segment: { rules: SegmentRule[]; nowMs: number; channels: string[] | null } | null;
  /** Null: revenue descending (chronologically first when interval is set), as the contract orders rows. */
  sort: { metric: MetricName; order: SortOrder } | null;
  rowKeys: string[][] | null;
  keyedRows: boolean;
  limit: number;
  offset: number;
  settings: WorkspaceSettings;
  /** Platform orders with no pixel match get a row (setting on, every channel covered, purchases counted). */
  includeUnattributed: boolean;
  /** Custom expenses go into the totals when the report covers the whole store and a profit metric is asked. */
  includeExpenses: boolean;
}

// One small check per rule.

function checkMetrics(metrics: string[] | undefined, sortBy: MetricName | undefined): MetricName[] {
  const named = metrics === undefined || metrics.length === 0 ? [...DEFAULT_METRICS] : metrics.map((m) => oneOf('metrics', m, METRIC_NAMES));
  return [...new Set([...named, ...(sortBy ? [sortBy] : [])])];
}

function checkSort(request: ReportRequest): { metric: MetricName; order: SortOrder } | null {
  const order = request.order === undefined ? undefined : oneOf('order', request.order, SORT_ORDERS);
  if (request.sort_by === undefined) return null;
  return { metric: oneOf('sort_by', request.sort_by, METRIC_NAMES), order: order ?? 'desc' };
}

function checkRowKeys(rowKeys: string[][] | undefined, breakdown: Breakdown | null, interval: Interval | null): string[][] | null {
  if (rowKeys === undefined) return null;
  const width = (breakdown ? DIMENSIONS[breakdown].keys.length : 0) + (interval ? 1 : 0);
  if (width === 0 || rowKeys.some((keys) => keys.length !== width)) throw new InvalidInput(`row_keys must have ${width || 'a breakdown or interval and'} keys each`);
  return rowKeys;
}

function checkProfitAccess(metrics: MetricName[], visibility: Visibility): void {
  if (!visibility.profit && metrics.some((m) => METRICS[m].profit)) throw new AccessDenied(NO_PROFIT_ACCESS);
}

function checkPixelAccess(sources: string[], visibility: Visibility): void {
  const refusal = pixelRefusal(visibility, sources);
  if (refusal) throw new AccessDenied(refusal);
}

function checkSources(sources: string[] | undefined): string[] {
  for (const source of sources ?? []) oneOf('source', source, PIXEL_SOURCES);
  return sources ?? [];
}

function checkPage(limit: number | undefined, offset: number | undefined): { limit: number; offset: number } {
  const l = limit ?? DEFAULT_LIMIT;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l <= 0) throw new InvalidInput('limit must be a positive integer');
  if (!Number.isInteger(o) || o < 0) throw new InvalidInput('offset must be a non-negative integer');
  return { limit: Math.min(l, MAX_LIMIT), offset: o };
}

/**
 * A segment filter as of the start of today (UTC): days_since_last_order counts whole days, so
 * every report of the day shares one plan and the result cache keeps it.
 */
function planSegment(rules: SegmentRule[] | undefined, visibility: Visibility, nowMs: number): ReportPlan['segment'] {
  if (rules === undefined) return null;
  return { rules, nowMs: nowMs - (nowMs % DAY_MS), channels: visibility.channels && [...visibility.channels].sort() };
}

export function planReport(input: {
  workspaceId: number;
  visibility: Visibility;
  settings: WorkspaceSettings;
  range: Range;
  request: ReportRequest;
  nowMs: number;
}): ReportPlan {
  const { request, settings, visibility } = input;
  const sort = checkSort(request);
  const metrics = checkMetrics(request.metrics, sort?.metric);
  const breakdown = request.breakdown === undefined ? null : oneOf('breakdown', request.breakdown, BREAKDOWNS);
  const interval = request.interval === undefined ? null : oneOf('interval', request.interval, INTERVAL_NAMES);
  const sources = checkSources(request.source);
  const page = checkPage(request.limit, request.offset);
  const attribution = planAttribution(request, settings, visibility);
  checkPixelAccess(sources, visibility);
  checkProfitAccess(metrics, visibility);
  const channels = pixelChannels(visibility, sources);
  const drilled = request.campaign !== undefined || request.adgroup !== undefined || request.ad !== undefined;
  const conversionNames = countedNames(settings, request.name);
  return {
    workspaceId: input.workspaceId,
    range: input.range,
    metrics,
    breakdown,
    interval,
    attribution,
    channels,
    conversionNames,
    campaign: request.campaign ?? null,
    adgroup: request.adgroup ?? null,
    ad: request.ad ?? null,
    segment: planSegment(request.segment_rules, visibility, input.nowMs),
    sort,
    rowKeys: checkRowKeys(request.row_keys, breakdown, interval),
    keyedRows: request.keyed_rows === true && breakdown !== null,
    ...page,
    settings,
    // An order with no pixel match is a purchase: it counts where purchases do.
    includeUnattributed: settings.include_unattributed && channels === null && countsName(conversionNames, PURCHASE) && !drilled,
    includeExpenses: channels === null && !drilled && metrics.some((m) => METRICS[m].profit),
  };
}
