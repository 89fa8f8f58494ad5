import { z } from 'zod';
import { METRIC_NAMES } from '../../../analytics/metrics.ts';
import { BREAKDOWNS, INTERVAL_NAMES } from '../../../analytics/dimensions.ts';
import { createAudited, listPresented, present } from '../kit/objects.ts';
import { attributionArgs, reportFilters } from './analytics.ts';
import { limitArg, offsetArg, readTool, shortText, writeTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';
import { SAVED_REPORT_KIND } from '../../../store/app/saved-reports.ts';

/** The dashboard view of a saved report (the dashboard's Saved reports, src/dashboard/client/views/saved-reports.ts). */
const savedReportPath = (workspaceId: number, id: string) => `/saved?workspace=${workspaceId}&report=${id}`;

export const dashboardTools = [
  readTool(
    'dashboards.get-dashboards',
    'Get dashboards and custom reports',
    'Saved reports (metrics, breakdown, interval, filters) and dashboard views.',
    "Custom reports saved with dashboards.create-report; each is a view under the dashboard's Saved reports.",
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ dashboards: out.list({ report_id: out.str, name: out.str, path: out.str }), custom_reports: out.storedList }),
    async (ctx, input) => {
      const reports = await listPresented(ctx, SAVED_REPORT_KIND, input);
      const dashboards = reports.map((r) => ({ report_id: r.id, name: r.name, path: savedReportPath(ctx.workspaceId, String(r.id)) }));
      return { dashboards, custom_reports: reports };
    },
  ),
  writeTool(
    'dashboards.create-report',
    'Save a custom report',
    'Saves analytics.query arguments as a named custom report in the dashboard.',
    'Stored in the workspace; shown as a dashboard view.',
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
    async (ctx, input) => ({ report: present(await createAudited(ctx, 'dashboards.create-report', SAVED_REPORT_KIND, input)) }),
  ),
];
