import { z } from 'zod';
import { getSettings } from '../../../store/app/workspaces.ts';
import { hourlyActivity } from '../../../analytics/queries/traffic/hourly-activity.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { dateFromArg, dateToArg, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const hourlyTools = [
  readTool(
    'hourly.get-data',
    'Activity by hour of day',
    'Sessions, conversions, revenue and conversion rate per hour of day (0 to 23, workspace time zone) over the range.',
    z.object({ date_from: dateFromArg, date_to: dateToArg }).strict(),
    z.strictObject({
      hourly: out.fields({ ...out.range, timezone: out.str, hours: out.list({ hour: out.num, sessions: out.num, conversions: out.num, revenue: out.num, cr: out.numOrNull }) }),
    }),
    async (ctx, input) => {
      const range = toolRange(input, ctx.now());
      const scope = pixelScope(ctx, range);
      const { timezone } = await getSettings(ctx.db, ctx.workspaceId);
      const rows = await hourlyActivity(ctx.ch, scope, { timezone });
      const byHour = new Map(rows.map((r) => [Number(r.hour), r]));
      const hours = Array.from({ length: 24 }, (_, hour) => {
        const r = byHour.get(hour);
        const sessions = Number(r?.sessions ?? 0);
        const conversions = Number(r?.conversions ?? 0);
        return { hour, sessions, conversions, revenue: money(Number(r?.revenue_cents ?? 0)), cr: ratio(conversions, sessions) };
      });
      return { hourly: { ...rangeOut(range), timezone, hours } };
    },
  ),
];
