/**
 * Report metrics. The report query sums a fixed set of *parts* per row (money in cents, possibly
 * fractional because attribution shares split conversions); every metric is a function of those
 * parts, so a ratio is always computed from summed parts, never averaged. A metric that cannot be
 * computed (its denominator is 0, or the row has no such part) is null, never 0.
 */
import { METRIC_NAMES, METRIC_PROPERTIES, type MetricKind, type MetricName, type MetricProperties } from '../kit/vocabulary.ts';

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

export interface MetricContext {
  /** Revenue is already net of refunds (refund_netting), so net_profit must not subtract them again. */
  refundsNetted: boolean;
}

type Part = keyof Parts;
/** A sum of parts, each added or (with a leading `-`) subtracted. */
type Sum = readonly (Part | `-${Part}`)[];

/** How a metric is computed: a sum of parts, divided by another sum for ratios. */
interface Formula {
  sum: Sum;
  /** Denominator of a ratio; the metric is null when it is 0. */
  per?: Sum;
}

/**
 * A metric: its properties from the vocabulary (kind, profit, incremental) and its formula, one
 * declaration that both the row values (`metricValue`) and the report's ORDER BY (`metricSql`)
 * are computed from.
 */
export type Metric = MetricProperties & Formula;

const GROSS_PROFIT: Sum = ['revenue', '-cogs'];
const NET_REVENUE: Sum = [...GROSS_PROFIT, '-payment_fees', '-shipping_costs'];
const CONTRIBUTION_PROFIT: Sum = [...NET_REVENUE, '-spend'];
/** Refunds are subtracted only when revenue is not already net of them (`sumTerms`). */
const NET_PROFIT: Sum = [...CONTRIBUTION_PROFIT, '-refunds', '-expenses'];

const FORMULAS = {
  spend: { sum: ['spend'] },
  revenue: { sum: ['revenue'] },
  roas: { sum: ['revenue'], per: ['spend'] },
  ctr: { sum: ['clicks'], per: ['impressions'] },
  cpa: { sum: ['spend'], per: ['conversions'] },
  cr: { sum: ['conversions'], per: ['sessions'] },
  sessions: { sum: ['sessions'] },
  conversions: { sum: ['conversions'] },
  impressions: { sum: ['impressions'] },
  clicks: { sum: ['clicks'] },
  new_customers: { sum: ['new_customers'] },
  add_to_carts: { sum: ['add_to_carts'] },
  checkouts: { sum: ['checkouts'] },
  cogs: { sum: ['cogs'] },
  payment_fees: { sum: ['payment_fees'] },
  shipping_costs: { sum: ['shipping_costs'] },
  refunds: { sum: ['refunds'] },
  gross_profit: { sum: GROSS_PROFIT },
  contribution_profit: { sum: CONTRIBUTION_PROFIT },
  net_profit: { sum: NET_PROFIT },
  gross_margin: { sum: GROSS_PROFIT, per: ['revenue'] },
  net_margin: { sum: NET_PROFIT, per: ['revenue'] },
  net_roas: { sum: NET_REVENUE, per: ['spend'] },
  incremental_conversions: { sum: ['incremental_conversions'] },
  incremental_revenue: { sum: ['incremental_revenue'] },
  iroas: { sum: ['incremental_revenue'], per: ['spend'] },
} as const satisfies Record<MetricName, Formula>;

export const METRICS = Object.fromEntries(METRIC_NAMES.map((name) => [name, { ...METRIC_PROPERTIES[name], ...FORMULAS[name] }])) as {
  [K in MetricName]: (typeof METRIC_PROPERTIES)[K] & (typeof FORMULAS)[K];
};

export { METRIC_NAMES, type MetricKind, type MetricName };
export const DEFAULT_METRICS: MetricName[] = ['spend', 'revenue', 'roas', 'conversions', 'sessions'];

/** A term of a sum as `[part, sign]`. */
const termOf = (term: Sum[number]): [Part, 1 | -1] => (term.startsWith('-') ? [term.slice(1) as Part, -1] : [term as Part, 1]);

/** The terms of a sum as `[part, sign]`, leaving out subtracted refunds when revenue is already net of them. */
function sumTerms(sum: Sum, ctx: MetricContext): [Part, 1 | -1][] {
  return sum.map(termOf).filter(([part, sign]) => !(part === 'refunds' && sign === -1 && ctx.refundsNetted));
}

/** Every part a metric's formula reads, divisor included. */
export function metricParts(name: MetricName): Part[] {
  const metric: Metric = METRICS[name];
  return [...metric.sum, ...(metric.per ?? [])].map((term) => termOf(term)[0]);
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
