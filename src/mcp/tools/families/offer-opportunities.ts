import { z } from 'zod';
import { cartAbandonment } from '../../../analytics/queries/offers/cart-abandonment.ts';
import { couponPerformance } from '../../../analytics/queries/offers/coupon-performance.ts';
import { getSettings } from '../../../store/app/workspaces.ts';
import { money, rangeOut, ratio, toolRange } from '../kit/range.ts';
import { pixelScope } from '../../../analytics/query-scope.ts';
import { rangeArgs, readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

/** Channels whose cart sessions convert below this rate are flagged for a cart-recovery offer. */
const ABANDONMENT_FLAG = 0.7;
const MIN_CART_SESSIONS = 20;

export const offerOpportunitiesTool = readTool(
  'offers.get-opportunities',
  'Offer opportunities',
  'Where an offer could pay off: channels with carts but few orders, and coupon results (conversions, ' +
    'revenue, new customer share). Basis: orders.',
  'Sessions with a cart and no conversion, and coupon codes on conversions, from traffic.',
  z.object(rangeArgs).strict(),
  z.strictObject({
    opportunities: out.fields({
      ...out.range,
      settings_applied: out.namesApplied,
      cart_abandonment: out.list({ channel: out.str, cart_sessions: out.num, converted_cart_sessions: out.num, abandonment_rate: out.numOrNull, opportunity: out.bool }),
      coupons: out.list({ coupon_code: out.str, conversions: out.num, revenue: out.num, new_customer_share: out.numOrNull }),
    }),
  }),
  async (ctx, input) => {
    const range = toolRange(ctx, input);
    const scope = pixelScope(ctx, range);
    const names = (await getSettings(ctx.db, ctx.workspaceId)).conversion_names;
    const [carts, coupons] = await Promise.all([cartAbandonment(ctx.ch, scope, names), couponPerformance(ctx.ch, scope, { limit: 50, names })]);
    const abandonment = carts.map((c) => {
      const cartSessions = Number(c.cart_sessions);
      const converted = Number(c.converted_cart_sessions);
      const rate = ratio(cartSessions - converted, cartSessions);
      return {
        channel: c.channel,
        cart_sessions: cartSessions,
        converted_cart_sessions: converted,
        abandonment_rate: rate,
        opportunity: cartSessions >= MIN_CART_SESSIONS && rate !== null && rate >= ABANDONMENT_FLAG,
      };
    });
    return {
      opportunities: {
        ...rangeOut(range),
        settings_applied: { conversion_names: names },
        cart_abandonment: abandonment,
        coupons: coupons.map((c) => ({
          coupon_code: c.coupon_code,
          conversions: Number(c.conversions),
          revenue: money(Number(c.revenue_cents)),
          new_customer_share: ratio(Number(c.new_customers), Number(c.conversions)),
        })),
      },
    };
  },
);
