import { z } from 'zod';
import { expandSourceGroups } from '../../../analytics/permissions.ts';
import { runProductSales } from '../../../analytics/product-sales.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { offsetArg, rangeArgs, readTool } from '../kit/tool.ts';
import { attributionArgs, attributionOf, sourceList } from './analytics.ts';
import * as out from '../kit/outputs.ts';

const figures = { units: out.num, revenue: out.num, orders: out.num };

export const productTools = [
  readTool(
    'products.get-sales',
    'Product sales',
    'What sold, to whose buyers (source: paid_social, ...): units, line revenue, orders per product, split by ' +
      'credited source. Basis: report.',
    'Line items of orders that are sales (platform orders, else the pixel\'s purchase items), credited by the report core.',
    z
      .object({
        ...rangeArgs,
        source: sourceList.optional().describe('Credited channels or groups'),
        campaign: z.string().min(1).max(200).optional().describe('Campaign id'),
        attribution_model: attributionArgs.attribution_model,
        limit: z.number().int().min(1).max(500).default(50),
        offset: offsetArg,
      })
      .strict(),
    z.strictObject({
      ...out.range,
      attribution: out.open,
      products: out.list({ product_id: out.str, variant_id: out.str, sku: out.str, title: out.str, ...figures, sources: out.list({ source: out.str, ...figures }) }),
      totals: out.fields(figures),
      pagination: out.open,
    }),
    async (ctx, { date_from, date_to, timezone, source, ...rest }) => {
      const range = toolRange(ctx, { date_from, date_to, timezone });
      const result = await runProductSales(ctx, ctx, range, {
        ...rest,
        source: source && expandSourceGroups(source, ctx.visibility),
      }, ctx.now());
      return {
        products: result.products,
        totals: result.totals,
        attribution: attributionOf(result.settings_applied),
        pagination: result.pagination,
        ...rangeOut(range),
      };
    },
  ),
];
