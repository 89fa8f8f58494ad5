import { z } from 'zod';
import { METRICS, METRIC_NAMES, type MetricName } from '../../../analytics/metrics.ts';
import { BREAKDOWNS, INTERVAL_NAMES } from '../../../analytics/dimensions.ts';
import { PIXEL_SOURCES, SOURCE_GROUP_NAMES } from '../../../analytics/sources.ts';
import { NO_PROFIT_ACCESS, expandSourceGroups } from '../../../analytics/permissions.ts';
import { runReportIn, runReportModels, type ReportRequest, type ReportResult } from '../../../analytics/report/run.ts';
import { COMPARISONS, runComparedReport } from '../../../analytics/report/compare.ts';
import { SORT_ORDERS } from '../../../analytics/report/plan.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS, type ModelName } from '../../../analytics/attribution/index.ts';
import { AccessDenied } from '../../../kit/errors.ts';
import { readBound } from '../../../kit/calendar/days.ts';
import { boundMessage, resolveRange, undated, type Range } from '../../../kit/calendar/range.ts';
import { idArg, offsetArg, readTool, timezoneArg, type ToolContext } from '../kit/tool.ts';
import { requireObject } from '../kit/objects.ts';
import type { SegmentRule } from '../../../analytics/segment-fields.ts';
import * as out from '../kit/outputs.ts';

// Written short: tools/list sends it with every report tool's filters.
const DAY_OR_TIMESTAMP = /^\d{4}(-\d\d){2}( \d\d(:\d\d){2})?$/;

/**
 * A day or timestamp the report core reads as the API's start_date/end_date: checked here in full
 * (years, calendar, time of day), so that a refusal names the tool's own argument.
 */
const boundArg = (name: string) =>
  z
    .string()
    .regex(DAY_OR_TIMESTAMP, { error: (issue) => boundMessage(name, String(issue.input), 'form', 'day or timestamp') })
    .superRefine((value, ctx) => {
      const read = readBound(value, 'start');
      if ('problem' in read && read.problem !== 'form') ctx.addIssue({ code: 'custom', message: boundMessage(name, value, read.problem, 'day or timestamp') });
    });
/**
 * Sources and source groups (paid_social, ...), which stand for their members the key can read.
 * Checked here by name; tools/list shows plain strings, since metadata.list_schema, which every
 * assistant calls first, lists them (23 names in five schemas were 1.3 KB of tools/list; docs/mcp.md,
 * "Size of the tool list").
 */
const SOURCE_NAMES: ReadonlySet<string> = new Set([...PIXEL_SOURCES, ...SOURCE_GROUP_NAMES]);
const sourceName = z.string().refine((name) => SOURCE_NAMES.has(name), {
  error: (issue) => `unknown source ${JSON.stringify(issue.input)} (metadata.list_schema lists the sources and groups)`,
});
export const sourceList = z.array(sourceName).max(SOURCE_NAMES.size);

/** Left out, each takes the workspace's saved dashboard setting (the server instructions say so once). */
export const attributionArgs = {
  attribution_model: z.enum(ATTRIBUTION_MODELS).optional().describe('Credit rule'),
  attribution_window: z.literal([...ATTRIBUTION_WINDOWS]).optional().describe('Lookback days'),
  attribution_date: z.enum(ATTRIBUTION_DATES).optional().describe('click: credit on the click date'),
};

export const reportFilters = z
  .object({
    date_from: boundArg('date_from').optional(),
    date_to: boundArg('date_to').optional(),
    timezone: timezoneArg,
    source: sourceList.optional().describe('Only these sources or groups'),
    ignore_sources: sourceList.optional().describe('Removed from paths'),
  })
  .strict();

type Filters = z.output<typeof reportFilters>;

export function reportRequest(
  filters: Filters | undefined,
  rest: Omit<ReportRequest, 'start_date' | 'end_date' | 'timezone' | 'source' | 'exclude_source'>,
): ReportRequest {
  return {
    ...rest,
    start_date: filters?.date_from,
    end_date: filters?.date_to,
    timezone: filters?.timezone,
    source: filters?.source,
    exclude_source: filters?.ignore_sources,
  };
}

/** A request with its source groups expanded for the tool's key, in the workspace's zone unless it names one. */
function expanded(ctx: ToolContext, request: ReportRequest): ReportRequest {
  const expand = (names: string[] | undefined) => names && expandSourceGroups(names, ctx.visibility);
  return { ...request, timezone: request.timezone ?? ctx.timeZone, source: expand(request.source), exclude_source: expand(request.exclude_source) };
}

const stores = (ctx: ToolContext) => ({ ch: ctx.ch, db: ctx.db, results: ctx.results });
const reader = (ctx: ToolContext) => ({ workspaceId: ctx.workspaceId, visibility: ctx.visibility });

/** Runs the /v3/report engine for the tool's workspace, over `range` when the tool resolved it already. */
export function report(ctx: ToolContext, request: ReportRequest, range?: Range): Promise<ReportResult> {
  const full = expanded(ctx, request);
  return runReportIn(stores(ctx), reader(ctx), range ?? resolveRange(full, ctx.now()), undated(full), ctx.now());
}

/** The /v3/report engine under each of `models`, in that order, from one statement (runReportModels). */
export function reportModels(ctx: ToolContext, request: ReportRequest, models: readonly ModelName[]): Promise<ReportResult[]> {
  const full = expanded(ctx, request);
  return runReportModels(stores(ctx), reader(ctx), resolveRange(full, ctx.now()), undated(full), models, ctx.now());
}

/** The attribution a result's numbers stand on, as every tool that credits conversions says it. */
export const attributionOf = (settings: ReportResult['settings_applied']) => ({
  model: settings.attribution_model,
  window: settings.attribution_window,
  date_mode: settings.attribution_date,
  ignore_sources: settings.ignore_sources,
  conversion_names: settings.conversion_names,
});

/** analytics.query's filters: the shared ones, a conversion name and a campaign, ad group or ad. */
const queryFilters = reportFilters.extend({
  conversion_name: z.string().trim().min(1).max(200).optional().describe('Conversion name, * wildcard'),
  campaign: z.string().min(1).max(200).optional().describe('Campaign id'),
  adgroup: z.string().min(1).max(200).optional().describe('Ad group id'),
  ad: z.string().min(1).max(200).optional().describe('Ad id'),
  segment_id: idArg('segment').optional().describe("Only its customers' orders"),
});

/** What a segment filter narrows, as the answer's settings_applied says it. */
const SEGMENT_SCOPE = "conversions and their revenue and costs; spend, impressions, clicks and sessions stay the whole scope's";

/** The stored segment a report is filtered by (not found as if absent when the key may not see it). */
async function segmentFilter(ctx: ToolContext, id: string | undefined) {
  if (id === undefined) return null;
  const segment = await requireObject<{ name: string; rules: SegmentRule[] }>(ctx, 'segment', id, 'Segment');
  return { rules: segment.data.rules, applied: { id, name: segment.data.name, filters: SEGMENT_SCOPE } };
}

const metricName = z.enum(METRIC_NAMES);
const PROFIT_METRICS = METRIC_NAMES.filter((m) => METRICS[m].profit);
const PROFIT_SUMMARY_METRICS: MetricName[] = ['revenue', 'spend', 'conversions', ...PROFIT_METRICS];

export const analyticsTools = [
  readTool(
    'analytics.query',
    'Query analytics',
    'The dashboard numbers (as GET /v3/report) for spend, revenue, ROAS, profit or traffic: totals and rows per ' +
      'breakdown and/or interval; compare_to adds each metric\'s previous value and change. Basis: report.',
    'The report core over traffic, conversions, orders and ad rows, with the workspace settings. filters.segment_id keeps the conversions (and unattributed orders) of the segment\'s customers ' +
      '(segments.get-segments); spend, impressions, clicks and sessions belong to no customer and stay the whole scope\'s.',
    z
      .object({
        metrics: z.array(metricName).min(1).max(METRIC_NAMES.length).optional()
          .describe('Default: spend, revenue, roas, conversions, sessions'),
        filters: queryFilters.optional().describe('Range, channels, conversion, drill-down'),
        breakdown: z.enum(BREAKDOWNS).optional().describe('Omit for totals only'),
        interval: z.enum(INTERVAL_NAMES).optional().describe('Rows per period'),
        compare_to: z.enum(COMPARISONS).optional().describe('Also the period before, or a year before'),
        sort_by: metricName.optional().describe('Order rows by this metric (default revenue)'),
        order: z.enum(SORT_ORDERS).default('desc').describe('Sort direction'),
        ...attributionArgs,
        limit: z.number().int().min(1).max(500).default(100),
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({
      rows: z.array(out.open), totals: out.open, attribution: out.open, comparison: out.open.optional(), settings_applied: out.open, pagination: out.open,
    }),
    async (ctx, { filters, compare_to, ...rest }) => {
      const { conversion_name, campaign, adgroup, ad, segment_id, ...shared } = filters ?? {};
      const segment = await segmentFilter(ctx, segment_id);
      const request = expanded(ctx, { ...reportRequest(shared, rest), name: conversion_name, campaign, adgroup, ad, segment_rules: segment?.rules });
      const range = resolveRange(request, ctx.now());
      const result = compare_to
        ? await runComparedReport(stores(ctx), reader(ctx), range, undated(request), compare_to, ctx.now())
        : await runReportIn(stores(ctx), reader(ctx), range, undated(request), ctx.now());
      return {
        rows: result.rows,
        totals: result.totals,
        attribution: attributionOf(result.settings_applied),
        ...('comparison' in result ? { comparison: result.comparison } : {}),
        settings_applied: segment ? { ...result.settings_applied, segment: segment.applied } : result.settings_applied,
        pagination: result.pagination,
      };
    },
  ),
  readTool(
    'analytics.profit-summary',
    'Profit summary',
    'Revenue, spend and every profit metric (COGS, fees, shipping, refunds, gross/contribution/net profit with ' +
      'expenses, margins, net ROAS), optionally per interval. Needs read:profit. Basis: report.',
    'The report core; costs from orders (COGS, fees, shipping, refunds), product costs and custom expenses imports.',
    z
      .object({
        filters: reportFilters.optional().describe('Range and channels'),
        interval: z.enum(INTERVAL_NAMES).optional().describe('Rows per period'),
        ...attributionArgs,
      })
      .strict(),
    z.strictObject({
      profit: out.fields({ ...out.period, currency: out.str, totals: out.open, periods: z.array(out.open), attribution: out.open, settings_applied: out.open }),
    }),
    async (ctx, { filters, ...rest }) => {
      if (!ctx.visibility.profit) throw new AccessDenied(NO_PROFIT_ACCESS);
      const result = await report(ctx, reportRequest(filters, { ...rest, metrics: PROFIT_SUMMARY_METRICS, limit: 500 }));
      return {
        profit: {
          start_date: result.pagination.start_date,
          end_date: result.pagination.end_date,
          currency: result.settings_applied.currency,
          totals: result.totals,
          ...(rest.interval ? { periods: result.rows } : {}),
          attribution: attributionOf(result.settings_applied),
          settings_applied: result.settings_applied,
        },
      };
    },
  ),
];
