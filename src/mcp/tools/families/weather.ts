import { z } from 'zod';
import { weatherSales } from '../../../analytics/queries/weather/weather-sales.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { money, rangeOut, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { pearson } from '../kit/stats.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

/** Said when a range has no weather rows: the data come from an import, not from the traffic. */
const NO_WEATHER = 'No imported weather for this range and place: daily weather comes from `import --kind weather` (docs/cli.md, Importing data)';

export const weatherTools = [
  readTool(
    'weather.get-data',
    'Weather and sales',
    'Daily weather beside the same place\'s conversions: revenue per condition, correlation of temperature and ' +
      'rain with it. Basis: orders.',
    'Needs an import of daily weather rows (`import --kind weather`), joined with conversions; empty until one.',
    z
      .object({
        ...rangeArgs,
        country_code: z.string().regex(/^[A-Z]{2}$/, { error: 'country_code must be two capital letters' }).optional().describe('ISO country, e.g. DE'),
        city: z.string().trim().min(1).max(200).optional().describe('City name'),
      })
      .strict(),
    z.strictObject({
      weather: out.fields({
        ...out.range,
        settings_applied: out.namesApplied,
        days: out.list({ date: out.str, country_code: out.str, city: out.str, temperature_c: out.num, precipitation_mm: out.num, condition: out.str, conversions: out.num, revenue: out.num }),
        by_condition: out.list({ condition: out.str, days: out.num, conversions: out.num, revenue_per_day: out.num }),
        temperature_revenue_correlation: out.numOrNull,
        precipitation_revenue_correlation: out.numOrNull,
        note: out.str,
      }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const names = (await getSettings(ctx.db, ctx.workspaceId)).conversion_names;
      const rows = await weatherSales(ctx.ch, pixelScope(ctx, range), { countryCode: input.country_code, city: input.city, names });
      const days = rows.map((r) => ({
        date: r.day,
        country_code: r.country_code,
        city: r.city,
        temperature_c: Math.round(Number(r.temperature_c) * 10) / 10,
        precipitation_mm: Math.round(Number(r.precipitation_mm) * 10) / 10,
        condition: r.condition,
        conversions: Number(r.conversions),
        revenue: money(Number(r.revenue_cents)),
      }));
      const conditions = new Map<string, { condition: string; days: number; revenue: number; conversions: number }>();
      for (const d of days) {
        const c = conditions.get(d.condition) ?? { condition: d.condition, days: 0, revenue: 0, conversions: 0 };
        c.days += 1;
        c.revenue += d.revenue;
        c.conversions += d.conversions;
        conditions.set(d.condition, c);
      }
      return {
        weather: {
          ...rangeOut(range),
          settings_applied: { conversion_names: names },
          ...(days.length === 0 ? { note: NO_WEATHER } : {}),
          days,
          by_condition: [...conditions.values()].map((c) => ({
            condition: c.condition,
            days: c.days,
            conversions: c.conversions,
            revenue_per_day: Math.round((c.revenue / c.days) * 100) / 100,
          })),
          temperature_revenue_correlation: pearson(days.map((d) => d.temperature_c), days.map((d) => d.revenue)),
          precipitation_revenue_correlation: pearson(days.map((d) => d.precipitation_mm), days.map((d) => d.revenue)),
        },
      };
    },
  ),
];
