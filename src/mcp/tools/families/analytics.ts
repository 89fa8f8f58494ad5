import { z } from 'zod';
import { METRICS, METRIC_NAMES, type MetricName } from '../../../analytics/metrics.ts';
import { BREAKDOWNS, INTERVAL_NAMES } from '../../../analytics/dimensions.ts';
import { PIXEL_SOURCES } from '../../../analytics/sources.ts';
import { NO_PROFIT_ACCESS } from '../../../analytics/permissions.ts';
import { runReport, type ReportRequest, type ReportResult } from '../../../analytics/report/run.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../../analytics/attribution/index.ts';
import { AccessDenied } from '../../../kit/errors.ts';
import { readBound } from '../../../kit/dates.ts';
import { boundMessage } from '../../../kit/range.ts';
import { offsetArg, readTool, timezoneArg, type ToolContext } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const DAY_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

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
const sourceList = z.array(z.enum(PIXEL_SOURCES)).max(PIXEL_SOURCES.length);

/** Left out, each takes the workspace's saved dashboard setting (the server instructions say so once). */
export const attributionArgs = {
  attribution_model: z.enum(ATTRIBUTION_MODELS).optional().describe('Credit rule'),
  attribution_window: z.literal([...ATTRIBUTION_WINDOWS]).optional().describe('Lookback days'),
  attribution_date: z.enum(ATTRIBUTION_DATES).optional().describe('click: credit on the click date'),
};

export const reportFilters = z
  .object({
    date_from: boundArg('date_from').optional().describe('First day'),
    date_to: boundArg('date_to').optional().describe('Last day'),
    timezone: timezoneArg,
    source: sourceList.optional().describe('Only these channels'),
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

/** Runs the /v3/report engine for the tool's workspace. */
export function report(ctx: ToolContext, request: ReportRequest): Promise<ReportResult> {
  return runReport({ ch: ctx.ch, db: ctx.db }, { workspaceId: ctx.workspaceId, visibility: ctx.visibility }, request, ctx.now());
}

const PROFIT_METRICS = METRIC_NAMES.filter((m) => METRICS[m].profit);
const PROFIT_SUMMARY_METRICS: MetricName[] = ['revenue', 'spend', 'conversions', ...PROFIT_METRICS];

export const analyticsTools = [
  readTool(
    'analytics.query',
    'Query analytics',
    'Dashboard numbers (as GET /v3/report): totals for the whole scope, and rows per breakdown value and/or ' +
      'interval. No campaign or ad filter: break down by campaign or ad.',
    'The report core over traffic, conversions, orders and ad rows, with the workspace settings.',
    z
      .object({
        metrics: z.array(z.enum(METRIC_NAMES)).min(1).max(METRIC_NAMES.length).optional()
          .describe('Default: spend, revenue, roas, conversions, sessions'),
        filters: reportFilters.optional().describe('Range and channels'),
        breakdown: z.enum(BREAKDOWNS).optional().describe('Omit for totals only'),
        interval: z.enum(INTERVAL_NAMES).optional().describe('Rows per period'),
        ...attributionArgs,
        limit: z.number().int().min(1).max(500).default(100).describe('Page size'),
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({ rows: z.array(out.open), totals: out.open, settings_applied: out.open, pagination: out.open }),
    async (ctx, { filters, ...rest }) => {
      const result = await report(ctx, reportRequest(filters, rest));
      return { rows: result.rows, totals: result.totals, settings_applied: result.settings_applied, pagination: result.pagination };
    },
  ),
  readTool(
    'analytics.profit-summary',
    'Profit summary',
    'Revenue, spend and every profit metric (COGS, fees, shipping, refunds, gross, contribution and net profit with ' +
      'custom expenses, margins, net ROAS), optionally per interval. Needs read:profit.',
    'The report core; costs from orders (COGS, fees, shipping, refunds), product costs and custom expenses imports.',
    z
      .object({
        filters: reportFilters.optional().describe('Range and channels'),
        interval: z.enum(INTERVAL_NAMES).optional().describe('Rows per period'),
        ...attributionArgs,
      })
      .strict(),
    z.strictObject({
      profit: out.fields({ ...out.period, currency: out.str, totals: out.open, periods: z.array(out.open), settings_applied: out.open }),
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
          settings_applied: result.settings_applied,
        },
      };
    },
  ),
];
