import { z } from 'zod';
import { repeatCustomers } from '../../../analytics/queries/loyalty/repeat-customers.ts';
import { listTool } from '../kit/objects.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { requireAllChannels } from '../kit/scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

export const loyaltyTools = [
  listTool(
    'loyalty.get-programs',
    'Get loyalty programs',
    'The loyalty programs (points, tiers, rewards).',
    'Loyalty programs stored in the workspace.',
    'loyalty_program',
    'programs',
  ),
  readTool(
    'loyalty.get-analytics',
    'Repeat purchase analytics',
    'Repeat purchases from platform orders in the range: customers, repeat rate, repeat revenue share, customers by ' +
      'order count (1, 2, 3, 4+).',
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
      const range = toolRange(input, ctx.now());
      const buckets = await repeatCustomers(ctx.ch, pixelScope(ctx, range));
      const rows = buckets.map((b) => ({ orders: Number(b.orders), customers: Number(b.customers), revenue_cents: Number(b.revenue_cents) }));
      const customers = rows.reduce((a, b) => a + b.customers, 0);
      const repeat = rows.filter((b) => b.orders >= 2);
      const repeatCustomers_ = repeat.reduce((a, b) => a + b.customers, 0);
      const revenue = rows.reduce((a, b) => a + b.revenue_cents, 0);
      const repeatRevenue = repeat.reduce((a, b) => a + b.revenue_cents, 0);
      return {
        loyalty: {
          ...rangeOut(range),
          customers,
          repeat_customers: repeatCustomers_,
          repeat_rate: ratio(repeatCustomers_, customers),
          revenue: money(revenue),
          repeat_revenue_share: ratio(repeatRevenue, revenue),
          buckets: rows.map((b) => ({ orders: b.orders === 4 ? '4+' : String(b.orders), customers: b.customers, revenue: money(b.revenue_cents) })),
        },
      };
    },
  ),
];
