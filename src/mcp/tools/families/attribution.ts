import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../../../analytics/attribution/index.ts';
import { expandSourceGroups } from '../../../analytics/permissions.ts';
import { explainConversion, explainRange } from '../../../analytics/explain/explain-conversion.ts';
import { attributionArgs, report, reportFilters, reportModels, reportRequest } from './analytics.ts';
import { dateFromArg, dateToArg, readTool, timezoneArg } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

/** A touchpoint as the explanation and the recent conversions' paths give it. */
export const TOUCHPOINT = { session_id: out.str, started_at: out.str, source: out.str, raw_source: out.str, campaign: out.str, adgroup: out.str, ad: out.str };

const COMPARED = ['revenue', 'conversions', 'spend', 'roas', 'cpa'];

export const attributionTools = [
  readTool(
    'attribution.get-data',
    'Compare attribution models',
    'Revenue, conversions, spend, ROAS and CPA per channel under each attribution model, side by side. Basis: report.',
    'The report core, every chosen attribution model in one pass, over traffic, conversions and ad rows.',
    z
      .object({
        models: z.array(z.enum(ATTRIBUTION_MODELS)).min(1).max(ATTRIBUTION_MODELS.length).optional().describe('Default: all'),
        filters: reportFilters.optional().describe('Range and channels'),
        attribution_window: attributionArgs.attribution_window,
        attribution_date: attributionArgs.attribution_date,
      })
      .strict(),
    z.strictObject({
      attribution: out.fields({
        ...out.period, timezone: out.str, currency: out.str, models: out.strs, attribution_window: out.num, attribution_date: out.str,
        channels: z.array(z.looseObject({ source: out.str })), totals: out.modelResult,
      }),
    }),
    async (ctx, { models, filters, ...rest }) => {
      const chosen = [...new Set(models ?? ATTRIBUTION_MODELS)];
      const results = await reportModels(ctx, reportRequest(filters, { ...rest, breakdown: 'source', metrics: COMPARED, limit: 500 }), chosen);
      const channels = new Map<string, Record<string, unknown>>();
      results.forEach((result, i) => {
        for (const row of result.rows) {
          const source = String(row.source);
          const entry = channels.get(source) ?? { source };
          entry[chosen[i]!] = Object.fromEntries(COMPARED.map((m) => [m, row[m] ?? null]));
          channels.set(source, entry);
        }
      });
      const first = results[0]!;
      return {
        attribution: {
          start_date: first.pagination.start_date,
          end_date: first.pagination.end_date,
          timezone: first.settings_applied.timezone,
          currency: first.settings_applied.currency,
          models: chosen,
          attribution_window: first.settings_applied.attribution_window,
          attribution_date: first.settings_applied.attribution_date,
          channels: [...channels.values()],
          totals: Object.fromEntries(chosen.map((m, i) => [m, results[i]!.totals])),
        },
      };
    },
  ),
  readTool(
    'attribution.explain',
    'Explain one conversion',
    "Why an order was credited: touchpoints, each model's shares, the learned models' numbers. Default: last 90 days.",
    "The buyer's traffic and conversions through the report models.",
    z
      .object({
        transaction_id: z.string().min(1).max(2000).describe('Order id'),
        date_from: dateFromArg,
        date_to: dateToArg,
        timezone: timezoneArg,
        attribution_window: attributionArgs.attribution_window,
        ignore_sources: z.array(z.string().max(40)).max(40).optional().describe('Sources removed from paths'),
      })
      .strict(),
    z.strictObject({
      attribution: out.fields({
        transaction_id: out.str, dt: out.str, revenue: out.num, source: out.str,
        touchpoints: out.list(TOUCHPOINT),
        credit: z.record(out.str, z.record(out.str, out.num)),
        removal_effects: z.record(out.str, out.num),
        paths: out.fields({ converting: out.num, non_converting: out.num }),
        lifts: z.record(out.str, out.num),
        calibrated_sources: z.array(out.str),
        baseline: out.num,
        fit: out.open,
        incremental_revenue: z.record(out.str, out.num),
      }),
    }),
    async (ctx, { date_from, date_to, timezone, ignore_sources, ...rest }) => {
      const request = { ...rest, exclude_source: ignore_sources && expandSourceGroups(ignore_sources, ctx.visibility) };
      const range = explainRange({ start_date: date_from, end_date: date_to, timezone: timezone ?? ctx.timeZone }, ctx.now());
      return { attribution: await explainConversion({ ch: ctx.ch, db: ctx.db }, ctx, range, request) };
    },
  ),
];
