import { z } from 'zod';
import { METRIC_NAMES } from '../../../analytics/metrics.ts';
import { BREAKDOWNS, INTERVAL_NAMES } from '../../../analytics/dimensions.ts';
import { createAudited, listPresented, present } from '../kit/objects.ts';
import { attributionArgs, reportFilters } from './analytics.ts';
import { limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const dashboardTools = [
  readTool(
    'dashboards.get-dashboards',
    'Get dashboards and custom reports',
    'Dashboards and saved custom reports (metrics, breakdown, interval, filters).',
    'Custom reports saved with dashboards.create-report.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ dashboards: out.storedList, custom_reports: out.storedList }),
    async (ctx, input) => ({
      dashboards: await listPresented(ctx, 'dashboard', input),
      custom_reports: await listPresented(ctx, 'custom_report', input),
    }),
  ),
  writeTool(
    'dashboards.create-report',
    'Save a custom report',
    'Saves analytics.query arguments as a named custom report in the dashboard.',
    'Stored in the workspace.',
    z
      .object({
        name: shortText('Name of the report'),
        metrics: z.array(z.enum(METRIC_NAMES)).min(1).max(METRIC_NAMES.length).describe('Columns'),
        breakdown: z.enum(BREAKDOWNS).optional().describe('Row grouping'),
        interval: z.enum(INTERVAL_NAMES).optional().describe('Rows per period'),
        filters: reportFilters.optional().describe('Range and channels'),
        ...attributionArgs,
      })
      .strict(),
    z.strictObject({ report: out.stored }),
    async (ctx, input) => ({ report: present(await createAudited(ctx, 'dashboards.create-report', 'custom_report', input)) }),
  ),
];
