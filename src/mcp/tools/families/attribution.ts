import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../../../analytics/attribution/index.ts';
import { attributionArgs, report, reportFilters, reportRequest } from './analytics.ts';
import { readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

const COMPARED = ['revenue', 'conversions', 'spend', 'roas', 'cpa'];

export const attributionTools = [
  readTool(
    'attribution.get-data',
    'Compare attribution models',
    'Revenue, conversions, spend, ROAS and CPA per channel under several attribution models side by side (default all seven).',
    'The report core, once per attribution model, over traffic, conversions and ad rows.',
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
        ...out.period, timezone: out.str, models: out.strs, attribution_window: out.num, attribution_date: out.str,
        channels: z.array(z.looseObject({ source: out.str })), totals: out.modelResult,
      }),
    }),
    async (ctx, { models, filters, ...rest }) => {
      const chosen = [...new Set(models ?? ATTRIBUTION_MODELS)];
      const results = await Promise.all(
        chosen.map((model) => report(ctx, reportRequest(filters, { ...rest, attribution_model: model, breakdown: 'source', metrics: COMPARED, limit: 500 }))),
      );
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
          models: chosen,
          attribution_window: first.settings_applied.attribution_window,
          attribution_date: first.settings_applied.attribution_date,
          channels: [...channels.values()],
          totals: Object.fromEntries(chosen.map((m, i) => [m, results[i]!.totals])),
        },
      };
    },
  ),
];
