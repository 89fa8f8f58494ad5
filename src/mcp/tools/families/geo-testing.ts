import { z } from 'zod';
import { geoTestCandidates } from '../../../analytics/queries/geo/geo-test-candidates.ts';
import { present } from '../kit/objects.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { listGeoTests } from '../../../store/app/geo-tests.ts';
import { geoTestResult } from '../../../analytics/geo-test-result.ts';
import { money, rangeOut, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { limitArg, offsetArg, rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const geoTestingTools = [
  readTool(
    'geo-testing.get-tests',
    'Get geo tests',
    'Geo tests (regions, days, status) with the daily revenue lift of treatment over control, 95% interval.',
    'Geo tests set up with `geo-test create`; daily sale revenue by the order\'s country or city, from traffic.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ tests: out.storedList }),
    async (ctx, page) => {
      const tests = await listGeoTests(ctx.db, ctx.workspaceId, page);
      return { tests: await Promise.all(tests.map(async (test) => ({ ...present(test), ...(await geoTestResult(ctx.ch, ctx, test.data, ctx.timeZone, ctx.now())) }))) };
    },
  ),
  readTool(
    'geo-testing.get-candidates',
    'Geo test candidates',
    'Ranks countries or cities as geo holdout regions: enough orders, steady daily revenue (low variation). Basis: orders.',
    'Conversions by country from traffic.',
    z
      .object({
        ...rangeArgs,
        level: z.enum(['country', 'city']).default('country').describe('Place granularity'),
        min_conversions: z.number().int().min(1).max(1_000_000).default(30).describe('Fewest conversions per place'),
        limit: z.number().int().min(1).max(200).default(20).describe('Places to return'),
      })
      .strict(),
    z.strictObject({
      geo_candidates: out.fields({
        ...out.range, level: out.str, settings_applied: out.namesApplied,
        candidates: out.list({ country_code: out.str, city: out.str, conversions: out.num, revenue: out.num, revenue_share: out.numOrNull, days_with_orders: out.num, daily_revenue_mean: out.num, daily_revenue_cv: out.numOrNull }),
      }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const names = (await getSettings(ctx.db, ctx.workspaceId)).conversion_names;
      const rows = await geoTestCandidates(ctx.ch, pixelScope(ctx, range), { level: input.level, days: range.days, names });
      const total = rows.reduce((a, r) => a + Number(r.revenue_cents), 0);
      const candidates = rows
        .filter((r) => Number(r.conversions) >= input.min_conversions)
        .map((r) => {
          const mean = Number(r.daily_mean_cents);
          const cv = mean === 0 ? null : Math.round((Number(r.daily_stddev_cents) / mean) * 1000) / 1000;
          return {
            country_code: r.country_code,
            ...(input.level === 'city' ? { city: r.city } : {}),
            conversions: Number(r.conversions),
            revenue: money(Number(r.revenue_cents)),
            revenue_share: total === 0 ? 0 : Math.round((Number(r.revenue_cents) / total) * 10_000) / 10_000,
            days_with_orders: Number(r.days_with_orders),
            daily_revenue_mean: money(mean),
            daily_revenue_cv: cv,
          };
        })
        .sort((a, b) => (a.daily_revenue_cv ?? Infinity) - (b.daily_revenue_cv ?? Infinity) || b.revenue - a.revenue)
        .slice(0, input.limit);
      return { geo_candidates: { ...rangeOut(range), level: input.level, settings_applied: { conversion_names: names }, candidates } };
    },
  ),
];
