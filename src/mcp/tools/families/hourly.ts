import { z } from 'zod';
import { getSettings } from '../../../store/app/workspaces.ts';
import { hourlyActivity } from '../../../analytics/queries/traffic/hourly-activity.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const hourlyTools = [
  readTool(
    'hourly.get-data',
    'Activity by hour of day',
    'Sessions, conversions, revenue and conversion rate per hour of day (0-23). ' +
      'Basis: orders.',
    'Sessions and conversions from traffic, by hour of the range\'s zone.',
    z.object(rangeArgs).strict(),
    z.strictObject({
      hourly: out.fields({ ...out.range, settings_applied: out.namesApplied, hours: out.list({ hour: out.num, sessions: out.num, conversions: out.num, revenue: out.num, cr: out.numOrNull }) }),
    }),
    async (ctx, input) => {
      const settings = await getSettings(ctx.db, ctx.workspaceId);
      const range = toolRange(ctx, input);
      const rows = await hourlyActivity(ctx.ch, pixelScope(ctx, range), settings.conversion_names);
      const byHour = new Map(rows.map((r) => [Number(r.hour), r]));
      const hours = Array.from({ length: 24 }, (_, hour) => {
        const r = byHour.get(hour);
        const sessions = Number(r?.sessions ?? 0);
        const conversions = Number(r?.conversions ?? 0);
        return { hour, sessions, conversions, revenue: money(Number(r?.revenue_cents ?? 0)), cr: ratio(conversions, sessions) };
      });
      return { hourly: { ...rangeOut(range), settings_applied: { conversion_names: settings.conversion_names }, hours } };
    },
  ),
];
