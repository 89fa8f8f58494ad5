import { z } from 'zod';
import { getSettings } from '../../../store/app/workspaces.ts';
import { touchpointPaths } from '../../../analytics/queries/journeys/touchpoint-paths.ts';
import { attributionArgs } from './analytics.ts';
import { planAttribution } from '../../../analytics/attribution/index.ts';
import { money, rangeOut, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { seesOrganic } from '../kit/scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const journeyTools = [
  readTool(
    'journeys.get-data',
    'Customer journeys',
    'Commonest source paths to a conversion (window\'s tagged sessions, repeats collapsed; none: ["organic"]), ' +
      'raw_paths, conversions, revenue. Basis: orders.',
    "Each buyer's sessions before a conversion, from traffic and conversions.",
    z
      .object({
        ...rangeArgs,
        attribution_window: attributionArgs.attribution_window,
        limit: z.number().int().min(1).max(200).default(25).describe('Paths to return'),
      })
      .strict(),
    z.strictObject({
      journeys: out.fields({
        ...out.range, attribution_window: out.num, settings_applied: out.namesApplied,
        paths: out.list({ path: out.strs, raw_paths: z.array(out.strs), touchpoints: out.num, conversions: out.num, revenue: out.num, avg_sessions_before_conversion: out.numOrNull }),
      }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const scope = pixelScope(ctx, range);
      const settings = await getSettings(ctx.db, ctx.workspaceId);
      const { windowDays } = planAttribution(input, settings, ctx.visibility);
      const names = settings.conversion_names;
      const rows = await touchpointPaths(ctx.ch, scope, { windowDays, organicVisible: seesOrganic(ctx), limit: input.limit, names });
      const paths = rows.map((r) => ({
        path: r.path,
        raw_paths: r.raw_paths,
        touchpoints: Number(r.touchpoints),
        conversions: Number(r.conversions),
        revenue: money(Number(r.revenue_cents)),
        avg_sessions_before_conversion: Number(r.avg_touchpoints),
      }));
      return { journeys: { ...rangeOut(range), attribution_window: windowDays, settings_applied: { conversion_names: names }, paths } };
    },
  ),
];
