import { z } from 'zod';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { METRIC_NAMES } from '../../analytics/metrics.ts';
import { BREAKDOWNS, INTERVAL_NAMES } from '../../analytics/dimensions.ts';
import { ATTRIBUTION_DATES, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS } from '../../analytics/attribution/index.ts';
import type { ReportRequest } from '../../analytics/report/plan.ts';
import { acceptedMessage } from '../../kit/choices.ts';
import { DATE_ALIASES, choice, zonedDateShape, pagingShape, parseWith, sourceListParam, text, type QuerySpec } from '../params.ts';

const metricsParam = z
  .string({ error: acceptedMessage('metrics', '', METRIC_NAMES) })
  .max(2000, { error: acceptedMessage('metrics', '(too long)', METRIC_NAMES) })
  .transform((v) => [...new Set(v.split(',').map((m) => m.trim()).filter(Boolean))])
  .pipe(z.array(z.enum(METRIC_NAMES, { error: (issue) => acceptedMessage('metrics', issue.input, METRIC_NAMES) })))
  .optional();

export const windowParam = z
  .string({ error: (issue) => acceptedMessage('attribution_window', issue.input, ATTRIBUTION_WINDOWS) })
  .refine((v) => (ATTRIBUTION_WINDOWS as readonly number[]).includes(Number(v)) && /^\d+$/.test(v), {
    error: (issue) => acceptedMessage('attribution_window', issue.input, ATTRIBUTION_WINDOWS),
  })
  .transform(Number)
  .optional();

export const reportQuerySchema = z.object({
  ...zonedDateShape,
  ...pagingShape,
  metrics: metricsParam,
  breakdown: choice('breakdown', BREAKDOWNS),
  interval: choice('interval', INTERVAL_NAMES),
  attribution_model: choice('attribution_model', ATTRIBUTION_MODELS),
  attribution_window: windowParam,
  attribution_date: choice('attribution_date', ATTRIBUTION_DATES),
  source: sourceListParam(PIXEL_SOURCES),
  exclude_source: sourceListParam(PIXEL_SOURCES),
  name: text('Invalid name parameter').optional(),
  campaign: text('Invalid campaign parameter').optional(),
  adgroup: text('Invalid adgroup parameter').optional(),
  ad: text('Invalid ad parameter').optional(),
});

export const reportQuery: QuerySpec<typeof reportQuerySchema> = {
  schema: reportQuerySchema,
  aliases: { ...DATE_ALIASES, sources: 'source', exclude_sources: 'exclude_source' },
  lists: ['metrics', 'source', 'sources', 'exclude_source', 'exclude_sources'],
};

export const parseReportQuery = (raw: unknown, alsoKnown?: readonly string[]): ReportRequest => parseWith(reportQuery, raw, alsoKnown);
