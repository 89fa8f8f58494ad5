import { z } from 'zod';
import { geoBreakdown } from '../../../analytics/queries/geo/geo-breakdown.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const mapTools = [
  readTool(
    'map.get-data',
    'Sales by place',
    'Sessions, conversions and revenue per country or city (sessions by visitor country, conversions by order ' +
      'address; city rows: 0 sessions). Basis: orders.',
    "Sessions and conversions by the visitors' country and city (traffic).",
    z
      .object({
        ...rangeArgs,
        level: z.enum(['country', 'city']).default('country').describe('Place granularity'),
        limit: z.number().int().min(1).max(500).default(100).describe('Places to return'),
      })
      .strict(),
    z.strictObject({
      map: out.fields({ ...out.range, level: out.str, settings_applied: out.namesApplied, places: out.list({ country_code: out.str, city: out.str, sessions: out.num, conversions: out.num, revenue: out.num, cr: out.numOrNull }) }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const names = (await getSettings(ctx.db, ctx.workspaceId)).conversion_names;
      const rows = await geoBreakdown(ctx.ch, pixelScope(ctx, range), { level: input.level, limit: input.limit, names });
      const places = rows.map((r) => ({
        country_code: r.country_code,
        ...(input.level === 'city' ? { city: r.city } : {}),
        sessions: Number(r.sessions),
        conversions: Number(r.conversions),
        revenue: money(Number(r.revenue_cents)),
        cr: input.level === 'city' ? null : ratio(Number(r.conversions), Number(r.sessions)),
      }));
      return { map: { ...rangeOut(range), level: input.level, settings_applied: { conversion_names: names }, places } };
    },
  ),
];
