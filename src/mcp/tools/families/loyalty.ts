import { z } from 'zod';
import { repeatCustomers } from '../../../analytics/queries/loyalty/repeat-customers.ts';
import { present } from '../kit/objects.ts';
import { programFigures } from '../../../analytics/queries/loyalty/program-members.ts';
import { listLoyaltyPrograms } from '../../../store/app/loyalty-programs.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { parseBound } from '../../../kit/dates.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
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
      const { timezone } = await getSettings(ctx.db, ctx.workspaceId);
      const programs = await listLoyaltyPrograms(ctx.db, ctx.workspaceId, page);
      return {
        programs: await Promise.all(
          programs.map(async (program) => {
            // Orders carry no channel: a key that does not see every channel gets no figures.
            const figures = ctx.visibility.channels === null
              ? await programFigures(ctx.ch, { workspaceId: ctx.workspaceId, startMs: parseBound(program.data.start_date, 'start', timezone)!, pointsPerUnit: program.data.points_per_unit })
              : null;
            return {
              ...present(program),
              members: figures ? figures.members : null,
              points_earned: figures ? figures.points : null,
              revenue: figures ? money(figures.revenue_cents) : null,
            };
          }),
        ),
      };
    },
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
