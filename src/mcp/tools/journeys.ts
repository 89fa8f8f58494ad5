import { z } from 'zod';
import { ATTRIBUTION_WINDOWS } from '../../store/app/settings.ts';
import { getSettings } from '../../store/app/workspaces.ts';
import { touchpointPaths } from '../../analytics/queries/journeys/touchpoint-paths.ts';
import { money, rangeOut, toolRange } from './range.ts';
import { pixelScope, seesOrganic } from './scope.ts';
import { dateFromArg, dateToArg, readTool } from './types.ts';

export const journeyTools = [
  readTool(
    'journeys.get-data',
    'Customer journeys',
    'The most common touchpoint paths before a conversion: the channels of the visitor\'s tagged sessions within the ' +
      'attribution window, in order (repeats in a row collapsed), with conversions and revenue per path. A conversion ' +
      'without touchpoints has the path ["organic"]. A key limited to some channels sees only the paths made entirely of ' +
      'channels it can read.',
    z
      .object({
        date_from: dateFromArg,
        date_to: dateToArg,
        attribution_window: z
          .literal([...ATTRIBUTION_WINDOWS])
          .optional()
          .describe('Lookback days; default the dashboard setting'),
        limit: z.number().int().min(1).max(200).default(25).describe('Paths returned'),
      })
      .strict(),
    async (ctx, input) => {
      const range = toolRange(input, ctx.now());
      const scope = pixelScope(ctx, range);
      const windowDays = input.attribution_window ?? (await getSettings(ctx.db, ctx.workspaceId)).attribution_window;
      const rows = await touchpointPaths(ctx.ch, scope, { windowDays, organicVisible: seesOrganic(ctx), limit: input.limit });
      const paths = rows.map((r) => ({
        path: r.path,
        touchpoints: Number(r.touchpoints),
        conversions: Number(r.conversions),
        revenue: money(Number(r.revenue_cents)),
        avg_sessions_before_conversion: Number(r.avg_touchpoints),
      }));
      return { journeys: { ...rangeOut(range), attribution_window: windowDays, paths } };
    },
  ),
];
