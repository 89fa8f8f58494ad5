import { z } from 'zod';
import { findWorkspace } from '../../../store/app/workspaces.ts';
import { ATTRIBUTION_WINDOWS } from '../../../analytics/attribution/index.ts';
import { COHORT_BREAKDOWNS, customerLtv } from '../../../analytics/customers.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const customerTools = [
  readTool(
    'customers.get-ltv',
    'Customers and lifetime value',
    'New customers (first order in range) by first source, campaign or month: repeat rate, LTV at 30-365 days; plus returning.',
    'The pixel\'s purchases and sessions (traffic), sales only, revenue under the workspace settings.',
    z.object({
      ...rangeArgs,
      breakdown: z.enum(COHORT_BREAKDOWNS).optional().describe('Rows by'),
      attribution_window: z.literal([...ATTRIBUTION_WINDOWS]).optional().describe('Lookback days'),
    }).strict(),
    z.strictObject({
      customers: out.fields({
        ...out.range, currency: out.str, breakdown: out.str.nullable(), attribution_window: out.num, conversion_names: out.strs,
        rows: z.array(out.open), totals: out.open,
      }),
    }),
    async (ctx, input) => {
      const workspace = await findWorkspace(ctx.db, ctx.workspaceId);
      const range = toolRange(ctx, input);
      const answer = await customerLtv(ctx, ctx, range, { breakdown: input.breakdown, attribution_window: input.attribution_window }, ctx.now());
      return {
        customers: {
          ...rangeOut(range), currency: workspace!.currency, breakdown: answer.breakdown, attribution_window: answer.attributionWindow,
          conversion_names: [...answer.countedNames], rows: answer.data, totals: answer.totals,
        },
      };
    },
  ),
];
