/** How numbers are shown; the table's CSV keeps the API's raw values. */
import { METRIC_NAMES, METRIC_PROPERTIES, MODEL_LABELS } from '../kit/vocabulary.ts';

/** `money`: an amount in the workspace currency (report numbers); `cents`: the same in cents (row fields). */
export type Kind = 'money' | 'cents' | 'count' | 'share' | 'ratio' | 'fraction' | 'text';

/** The report's metrics as the vocabulary kinds them, and the other views' figures. */
export const METRIC_KINDS: Record<string, Kind> = {
  ...Object.fromEntries(METRIC_NAMES.map((m) => [m, METRIC_PROPERTIES[m].kind])),
  units: 'share', orders: 'share',
  customers: 'count', returning_customers: 'count', repeat_customers: 'count', repeat_rate: 'fraction', repeat_revenue_share: 'fraction',
};

export const LABELS: Record<string, string> = {
  spend: 'Spend', revenue: 'Revenue', roas: 'ROAS', ctr: 'CTR', cpa: 'CPA', cr: 'CR', sessions: 'Sessions',
  conversions: 'Conversions', impressions: 'Impressions', clicks: 'Clicks', new_customers: 'New customers',
  add_to_carts: 'Add to carts', checkouts: 'Checkouts', cogs: 'COGS', payment_fees: 'Payment fees',
  shipping_costs: 'Shipping costs', refunds: 'Refunds', gross_profit: 'Gross profit', contribution_profit: 'Contribution profit',
  units: 'Units', orders: 'Orders',
  customers: 'Customers', returning_customers: 'Returning customers', repeat_customers: 'Repeat customers', repeat_rate: 'Repeat rate', repeat_revenue_share: 'Repeat revenue share',
  net_profit: 'Net profit', gross_margin: 'Gross margin', net_margin: 'Net margin', net_roas: 'Net ROAS',
  incremental_conversions: 'Incremental conv.', incremental_revenue: 'Incremental revenue', iroas: 'iROAS',
  source: 'Source', campaign: 'Campaign', adgroup: 'Ad group', ad: 'Ad', date: 'Date', utm_source: 'UTM source',
  utm_campaign: 'UTM campaign', utm_medium: 'UTM medium', utm_term: 'UTM term', utm_content: 'UTM content',
  pageviews: 'Pageviews', referrer: 'Referrer', landing_page: 'Landing page', city: 'City', coupon_code: 'Coupon code',
  ...MODEL_LABELS,
};

export const label = (key: string) => LABELS[key] ?? key.replace(/_/g, ' ');

let money = moneyFormat('USD');

function moneyFormat(currency: string): Intl.NumberFormat {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function setCurrency(code: string): void {
  if (money.resolvedOptions().currency !== code) money = moneyFormat(code);
}

/** The one way money is shown everywhere (tiles, tables, charts, paths): the workspace currency, always with cents. */
export const formatMoney = (amount: number): string => money.format(amount);

export function formatValue(value: unknown, kind: Kind): string {
  if (value === null || value === undefined) return '–';
  if (kind === 'text') return String(value) || '(none)';
  const n = Number(value);
  switch (kind) {
    case 'money':
      return formatMoney(n);
    case 'cents':
      return formatMoney(n / 100);
    case 'count':
      return new Intl.NumberFormat('en-US').format(n);
    case 'share':
      return new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(n);
    case 'ratio':
      return `${n.toFixed(2)}×`;
    case 'fraction':
      return `${(n * 100).toFixed(2)} %`;
  }
}

/** The change against the previous period, as a signed percentage; null when it cannot be computed. */
export function change(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / Math.abs(previous);
}

/** The wall-clock date and time of an instant in `zone`: `YYYY-MM-DD` and `HH:MM`. */
export function localTime(ms: number, zone: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
  });
  for (const p of format.formatToParts(ms)) parts[p.type] = p.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** A `YYYY-MM-DD HH:MM:SS` UTC timestamp of the API, read as an instant. */
export const instantOf = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

/** Today's date in `zone`. */
export const todayIn = (zone: string) => localTime(Date.now(), zone).date;

/** The date `n` days after `day` (before, when negative): calendar arithmetic, whatever the zone's clocks do. */
export const addDays = (day: string, n: number) => new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);

/** The first day of the month `offset` months after the one of `day`. */
export const monthStart = (day: string, offset = 0) => {
  const d = new Date(Date.parse(day));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
};

/** "Winter sale · 1201": the name the ad rows give a campaign, ad group or ad id, beside it; the id alone when none does. */
export const withName = (id: string, name: string | undefined): string => (name ? `${name} · ${id}` : id);
