import { z } from 'zod';
import { variantPerformance, type VariantRow } from '../../../analytics/queries/ab-testing/variant-performance.ts';
import { NotFound } from '../../../kit/errors.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { twoProportionTest } from '../kit/stats.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const testIdArg = z.string().trim().min(1).max(200).describe('From ab-testing.get-tests');

export const abTestingTools = [
  readTool(
    'ab-testing.get-tests',
    'Get A/B tests',
    'A/B tests seen in the traffic (landing URLs with ab_test and ab_variant): variants, sessions, first and last day.',
    'Landing URLs carrying ab_test and ab_variant in traffic; empty until the shop tags its tests that way.',
    z.object(rangeArgs).strict(),
    z.strictObject({ ...out.range, tests: out.list({ test_id: out.str, variants: out.strs, sessions: out.num, first_seen: out.str, last_seen: out.str }), note: out.str.optional() }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const rows = await variantPerformance(ctx.ch, pixelScope(ctx, range));
      const tests = new Map<string, { test_id: string; variants: string[]; sessions: number; first_seen: string; last_seen: string }>();
      for (const r of rows) {
        const t = tests.get(r.test_id) ?? { test_id: r.test_id, variants: [], sessions: 0, first_seen: r.first_seen, last_seen: r.last_seen };
        t.variants.push(r.variant);
        t.sessions += Number(r.sessions);
        if (r.first_seen < t.first_seen) t.first_seen = r.first_seen;
        if (r.last_seen > t.last_seen) t.last_seen = r.last_seen;
        tests.set(r.test_id, t);
      }
      const note = tests.size === 0 ? { note: 'No A/B test in this range: a test shows once its landing URLs carry ab_test and ab_variant' } : {};
      return { tests: [...tests.values()], ...rangeOut(range), ...note };
    },
  ),
  readTool(
    'ab-testing.get-results',
    'A/B test results',
    'Per variant of one test: sessions, conversion rate, revenue per session, two-proportion z-test vs the ' +
      'control (p < 0.05). Basis: orders.',
    'Sessions and conversions per variant, from traffic.',
    z
      .object({
        test_id: testIdArg,
        control_variant: z.string().max(200).optional().describe('Default: the first in name order'),
        ...rangeArgs,
      })
      .strict(),
    z.strictObject({
      results: out.fields({
        ...out.range, test_id: out.str, control_variant: out.str, settings_applied: out.namesApplied,
        variants: out.list({
          variant: out.str, is_control: out.bool, sessions: out.num, converted_sessions: out.num, conversions: out.num, revenue: out.num, cr: out.numOrNull,
          revenue_per_session: out.numOrNull, uplift: out.numOrNull, significance: z.looseObject({}).nullable(),
        }),
      }),
    }),
    async (ctx, input) => {
      const range = toolRange(ctx, input);
      const names = (await getSettings(ctx.db, ctx.workspaceId)).conversion_names;
      const rows = await variantPerformance(ctx.ch, pixelScope(ctx, range), { testId: input.test_id, names });
      if (rows.length === 0) throw new NotFound(`No sessions of test ${input.test_id} in the range`);
      const control: VariantRow | undefined = input.control_variant === undefined ? rows[0] : rows.find((r) => r.variant === input.control_variant);
      if (!control) throw new NotFound(`Test ${input.test_id} has no variant ${input.control_variant}`);
      const variants = rows.map((r) => {
        const sessions = Number(r.sessions);
        const converted = Number(r.converted_sessions);
        return {
          variant: r.variant,
          is_control: r === control,
          sessions,
          converted_sessions: converted,
          conversions: Number(r.conversions),
          revenue: money(Number(r.revenue_cents)),
          cr: ratio(converted, sessions),
          revenue_per_session: sessions === 0 ? null : money(Number(r.revenue_cents) / sessions),
          uplift: r === control ? null : ratio(converted / sessions - Number(control.converted_sessions) / Number(control.sessions), Number(control.converted_sessions) / Number(control.sessions)),
          significance: r === control ? null : twoProportionTest(Number(control.converted_sessions), Number(control.sessions), converted, sessions),
        };
      });
      return { results: { test_id: input.test_id, ...rangeOut(range), control_variant: control.variant, settings_applied: { conversion_names: names }, variants } };
    },
  ),
];
