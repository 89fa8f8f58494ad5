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
  /** Null on rows whose breakdown sessions do not carry (coupon_code). */
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
  /** Conversions and revenue a tracked channel caused (data_driven's credits but organic's); 0 under other models. */
  incremental_conversions: number;
  incremental_revenue: number;
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

type Part = keyof Parts;
/** A sum of parts, each added or (with a leading `-`) subtracted. */
type Sum = readonly (Part | `-${Part}`)[];

/**
 * A metric as a sum of parts, divided by another sum for ratios: one declaration that both the
 * row values (`metricValue`) and the report's ORDER BY (`metricSql`) are computed from.
 */
export interface Metric {
  kind: MetricKind;
  /** Needs read:profit (or admin:admin). */
  profit: boolean;
  sum: Sum;
  /** Denominator of a ratio; the metric is null when it is 0. */
  per?: Sum;
  /** Only a model that splits off what would have happened anyway (data_driven) gives it; null under the others. */
  incremental?: true;
}

const GROSS_PROFIT: Sum = ['revenue', '-cogs'];
const NET_REVENUE: Sum = [...GROSS_PROFIT, '-payment_fees', '-shipping_costs'];
const CONTRIBUTION_PROFIT: Sum = [...NET_REVENUE, '-spend'];
/** Refunds are subtracted only when revenue is not already net of them (`sumTerms`). */
const NET_PROFIT: Sum = [...CONTRIBUTION_PROFIT, '-refunds', '-expenses'];

const plain = (kind: MetricKind, part: Part, profit = false): Metric => ({ kind, profit, sum: [part] });

export const METRICS = {
  spend: plain('money', 'spend'),
  revenue: plain('money', 'revenue'),
  roas: { kind: 'ratio', profit: false, sum: ['revenue'], per: ['spend'] },
  ctr: { kind: 'fraction', profit: false, sum: ['clicks'], per: ['impressions'] },
  cpa: { kind: 'money', profit: false, sum: ['spend'], per: ['conversions'] },
  cr: { kind: 'fraction', profit: false, sum: ['conversions'], per: ['sessions'] },
  sessions: plain('count', 'sessions'),
  conversions: plain('share', 'conversions'),
  impressions: plain('count', 'impressions'),
  clicks: plain('count', 'clicks'),
  new_customers: plain('share', 'new_customers'),
  add_to_carts: plain('count', 'add_to_carts'),
  checkouts: plain('count', 'checkouts'),
  cogs: plain('money', 'cogs', true),
  payment_fees: plain('money', 'payment_fees', true),
  shipping_costs: plain('money', 'shipping_costs', true),
  refunds: plain('money', 'refunds', true),
  gross_profit: { kind: 'money', profit: true, sum: GROSS_PROFIT },
  contribution_profit: { kind: 'money', profit: true, sum: CONTRIBUTION_PROFIT },
  net_profit: { kind: 'money', profit: true, sum: NET_PROFIT },
  gross_margin: { kind: 'fraction', profit: true, sum: GROSS_PROFIT, per: ['revenue'] },
  net_margin: { kind: 'fraction', profit: true, sum: NET_PROFIT, per: ['revenue'] },
  net_roas: { kind: 'ratio', profit: true, sum: NET_REVENUE, per: ['spend'] },
  incremental_conversions: { kind: 'share', profit: false, sum: ['incremental_conversions'], incremental: true },
  incremental_revenue: { kind: 'money', profit: false, sum: ['incremental_revenue'], incremental: true },
  iroas: { kind: 'ratio', profit: false, sum: ['incremental_revenue'], per: ['spend'], incremental: true },
} as const satisfies Record<string, Metric>;

export type MetricName = keyof typeof METRICS;
export const METRIC_NAMES = Object.keys(METRICS) as [MetricName, ...MetricName[]];
export const DEFAULT_METRICS: MetricName[] = ['spend', 'revenue', 'roas', 'conversions', 'sessions'];

/** The terms of a sum as `[part, sign]`, leaving out subtracted refunds when revenue is already net of them. */
function sumTerms(sum: Sum, ctx: MetricContext): [Part, 1 | -1][] {
  return sum
    .map((term): [Part, 1 | -1] => (term.startsWith('-') ? [term.slice(1) as Part, -1] : [term as Part, 1]))
    .filter(([part, sign]) => !(part === 'refunds' && sign === -1 && ctx.refundsNetted));
}

function sumOf(sum: Sum, parts: Parts, ctx: MetricContext): number | null {
  let total = 0;
  for (const [part, sign] of sumTerms(sum, ctx)) {
    const value = parts[part];
    if (value === null) return null;
    total += sign * value;
  }
  return total;
}

/** A metric's value from a row's parts (money in cents); null when it cannot be computed. */
export function metricValue(name: MetricName, parts: Parts, ctx: MetricContext): number | null {
  const metric: Metric = METRICS[name];
  const value = sumOf(metric.sum, parts, ctx);
  if (!metric.per) return value;
  const per = sumOf(metric.per, parts, ctx);
  return value === null || per === null || per === 0 ? null : value / per;
}

/**
 * A metric as a ClickHouse expression over a row's parts (`part(name)` is the SQL of one part),
 * NULL where `metricValue` is null: what the report orders its rows by.
 */
export function metricSql(name: MetricName, part: (name: Part) => string, ctx: MetricContext): string {
  const metric: Metric = METRICS[name];
  const sql = (sum: Sum) => sumTerms(sum, ctx).map(([p, sign], i) => `${sign < 0 ? ' - ' : i ? ' + ' : ''}${part(p)}`).join('');
  if (!metric.per) return `(${sql(metric.sum)})`;
  return `if((${sql(metric.per)}) = 0, NULL, (${sql(metric.sum)}) / (${sql(metric.per)}))`;
}

const round = (value: number, places: number) => {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded; // no -0 on the wire
};

/** The wire value of a metric: money as a decimal with 2 places, shares and ratios with 4. */
export function formatMetric(name: MetricName, parts: Parts, ctx: MetricContext): number | null {
  const value = metricValue(name, parts, ctx);
  if (value === null || !Number.isFinite(value)) return null;
  switch (METRICS[name].kind) {
    case 'money':
      return round(Math.round(value) / 100, 2);
    case 'count':
      return Math.round(value);
    default:
      return round(value, 4);
  }
}
