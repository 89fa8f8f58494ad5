/**
 * Report metrics. The report query sums a fixed set of *parts* per row (money in cents, possibly
 * fractional because attribution shares split conversions); every metric is a function of those
 * parts, so a ratio is always computed from summed parts, never averaged. A metric that cannot be
 * computed (its denominator is 0, or the row has no such part) is null, never 0.
 */

export interface Parts {
  spend: number;
  impressions: number;
  clicks: number;
  /** Null on rows whose breakdown sessions do not carry (city, coupon_code). */
  sessions: number | null;
  add_to_carts: number | null;
  checkouts: number | null;
  conversions: number;
  revenue: number;
  new_customers: number;
  cogs: number;
  payment_fees: number;
  shipping_costs: number;
  refunds: number;
  /** Custom expenses: totals only (0 on breakdown rows). */
  expenses: number;
}

/** How a value goes on the wire. */
export type MetricKind =
  | 'money' // cents in, decimal of the workspace currency out (2 places)
  | 'count' // whole count
  | 'share' // attributed count, may be fractional (4 places)
  | 'ratio' // plain factor (4 places)
  | 'fraction'; // 0.2641 means 26.41 % (4 places)

export interface MetricContext {
  /** Revenue is already net of refunds (refund_netting), so net_profit must not subtract them again. */
  refundsNetted: boolean;
}

export interface Metric {
  kind: MetricKind;
  /** Needs read:profit (or admin:admin). */
  profit: boolean;
  value(p: Parts, ctx: MetricContext): number | null;
}

const div = (a: number | null, b: number | null): number | null => (a === null || b === null || b === 0 ? null : a / b);

const grossProfit = (p: Parts) => p.revenue - p.cogs;
const netProfit = (p: Parts, ctx: MetricContext) =>
  grossProfit(p) - p.payment_fees - p.shipping_costs - p.spend - (ctx.refundsNetted ? 0 : p.refunds) - p.expenses;

export const METRICS = {
  spend: { kind: 'money', profit: false, value: (p) => p.spend },
  revenue: { kind: 'money', profit: false, value: (p) => p.revenue },
  roas: { kind: 'ratio', profit: false, value: (p) => div(p.revenue, p.spend) },
  ctr: { kind: 'fraction', profit: false, value: (p) => div(p.clicks, p.impressions) },
  cpa: { kind: 'money', profit: false, value: (p) => div(p.spend, p.conversions) },
  cr: { kind: 'fraction', profit: false, value: (p) => div(p.conversions, p.sessions) },
  sessions: { kind: 'count', profit: false, value: (p) => p.sessions },
  conversions: { kind: 'share', profit: false, value: (p) => p.conversions },
  impressions: { kind: 'count', profit: false, value: (p) => p.impressions },
  clicks: { kind: 'count', profit: false, value: (p) => p.clicks },
  new_customers: { kind: 'share', profit: false, value: (p) => p.new_customers },
  add_to_carts: { kind: 'count', profit: false, value: (p) => p.add_to_carts },
  checkouts: { kind: 'count', profit: false, value: (p) => p.checkouts },
  cogs: { kind: 'money', profit: true, value: (p) => p.cogs },
  payment_fees: { kind: 'money', profit: true, value: (p) => p.payment_fees },
  shipping_costs: { kind: 'money', profit: true, value: (p) => p.shipping_costs },
  refunds: { kind: 'money', profit: true, value: (p) => p.refunds },
  gross_profit: { kind: 'money', profit: true, value: grossProfit },
  contribution_profit: {
    kind: 'money',
    profit: true,
    value: (p) => grossProfit(p) - p.payment_fees - p.shipping_costs - p.spend,
  },
  net_profit: { kind: 'money', profit: true, value: netProfit },
  gross_margin: { kind: 'fraction', profit: true, value: (p) => div(grossProfit(p), p.revenue) },
  net_margin: { kind: 'fraction', profit: true, value: (p, ctx) => div(netProfit(p, ctx), p.revenue) },
  net_roas: {
    kind: 'ratio',
    profit: true,
    value: (p) => div(grossProfit(p) - p.payment_fees - p.shipping_costs, p.spend),
  },
} as const satisfies Record<string, Metric>;

export type MetricName = keyof typeof METRICS;
export const METRIC_NAMES = Object.keys(METRICS) as [MetricName, ...MetricName[]];
export const DEFAULT_METRICS: MetricName[] = ['spend', 'revenue', 'roas', 'conversions', 'sessions'];

const round = (value: number, places: number) => {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded; // no -0 on the wire
};

/** The wire value of a metric: money as a decimal with 2 places, shares and ratios with 4. */
export function formatMetric(name: MetricName, parts: Parts, ctx: MetricContext): number | null {
  const metric: Metric = METRICS[name];
  const value = metric.value(parts, ctx);
  if (value === null || !Number.isFinite(value)) return null;
  switch (metric.kind) {
    case 'money':
      return round(Math.round(value) / 100, 2);
    case 'count':
      return Math.round(value);
    default:
      return round(value, 4);
  }
}
