import { z } from 'zod';
import { loyaltyPrograms, repeatPurchases } from '../../../analytics/loyalty.ts';
import { present } from '../kit/objects.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { requireAllChannels } from '../kit/scope.ts';
import { limitArg, offsetArg, rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const loyaltyTools = [
  readTool(
    'loyalty.get-programs',
    'Get loyalty programs',
    'Loyalty programs: points rate, start, members and points earned (null without every channel).',
    'Programs set up with `loyalty create`; members and points from sale orders since the start.',
    z.object({ limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ programs: out.storedList }),
    async (ctx, page) => {
      const programs = await loyaltyPrograms(ctx, ctx, ctx.timeZone, page);
      return { programs: programs.map(({ program, ...figures }) => ({ ...present(program), ...figures })) };
    },
  ),
  readTool(
    'loyalty.get-analytics',
    'Repeat purchase analytics',
    'Repeat purchases from platform orders in the range: customers, repeat rate, repeat revenue share, customers by ' +
      'order count (1 to 4+).',
    'Repeat purchases of customers, from orders.',
    z.object(rangeArgs).strict(),
    z.strictObject({
      loyalty: out.fields({
        ...out.range, customers: out.num, repeat_customers: out.num, repeat_rate: out.numOrNull, revenue: out.num, repeat_revenue_share: out.numOrNull,
        buckets: out.list({ orders: out.str, customers: out.num, revenue: out.num }),
      }),
    }),
    async (ctx, input) => {
      requireAllChannels(ctx, 'order-level loyalty data');
      const range = toolRange(ctx, input);
      return { loyalty: { ...rangeOut(range), ...(await repeatPurchases(ctx.ch, ctx.workspaceId, range)) } };
    },
  ),
];
