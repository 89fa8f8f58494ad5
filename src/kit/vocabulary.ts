/**
 * The names every surface shares: attribution models, windows and dates, and report breakdowns
 * with their properties. The server validates against these lists and the browser bundles (the
 * dashboard, the MCP apps) offer them, so both import them from here and no list is ever copied.
 * This module imports nothing, so esbuild bundles it into the browser as it is.
 */

/** Attribution models, in the order refusals list them. */
export const ATTRIBUTION_MODELS = ['last_click', 'first_click', 'linear', 'u_shaped', 'total_impact', 'any_click', 'markov', 'data_driven'] as const;
export type ModelName = (typeof ATTRIBUTION_MODELS)[number];

/** How the dashboard names each model. */
export const MODEL_LABELS: Record<ModelName, string> = {
  last_click: 'Last click',
  first_click: 'First click',
  linear: 'Linear',
  u_shaped: 'U-shaped',
  total_impact: 'Total impact',
  any_click: 'Any click',
  markov: 'Markov',
  data_driven: 'Data-driven',
};

/** Lookback windows in days. */
export const ATTRIBUTION_WINDOWS = [1, 7, 28, 90, 180, 365] as const;
export type AttributionWindow = (typeof ATTRIBUTION_WINDOWS)[number];

/** Which date a conversion's credit is reported on: the conversion's or the credited click's. */
export const ATTRIBUTION_DATES = ['conversion', 'click'] as const;
export type AttributionDate = (typeof ATTRIBUTION_DATES)[number];

export interface BreakdownProperties {
  /** Rows carry an ad id with its display name (`<breakdown>_name`) and the source beside it. */
  named: boolean;
  /** The next level of a drill-down; the clicked row's key becomes a filter named after this breakdown. */
  next?: string;
  /** A conversion without this key takes its platform order's. */
  fromOrder: boolean;
}

/** Report breakdowns, in the order refusals list them. */
export const BREAKDOWN_PROPERTIES = {
  source: { named: false, next: 'campaign', fromOrder: false },
  campaign: { named: true, next: 'adgroup', fromOrder: false },
  adgroup: { named: true, next: 'ad', fromOrder: false },
  ad: { named: true, fromOrder: false },
  utm_source: { named: false, fromOrder: false },
  utm_campaign: { named: false, fromOrder: false },
  utm_medium: { named: false, fromOrder: false },
  utm_term: { named: false, fromOrder: false },
  utm_content: { named: false, fromOrder: false },
  referrer: { named: false, fromOrder: false },
  landing_page: { named: false, fromOrder: false },
  city: { named: false, fromOrder: true },
  coupon_code: { named: false, fromOrder: true },
} as const satisfies Record<string, BreakdownProperties>;

export type Breakdown = keyof typeof BREAKDOWN_PROPERTIES;
export const BREAKDOWNS = Object.keys(BREAKDOWN_PROPERTIES) as [Breakdown, ...Breakdown[]];

const properties = (b: string): BreakdownProperties | undefined =>
  Object.hasOwn(BREAKDOWN_PROPERTIES, b) ? BREAKDOWN_PROPERTIES[b as Breakdown] : undefined;

/** The breakdowns whose rows name an ad object (campaign, ad group, ad), from the top of a drill-down down. */
export const NAMED_BREAKDOWNS = BREAKDOWNS.filter((b) => properties(b)!.named) as ('campaign' | 'adgroup' | 'ad')[];

/** Whether a breakdown's rows name an ad object; false for any other name. */
export const isNamedBreakdown = (b: string): boolean => properties(b)?.named ?? false;

/** The breakdown a drill-down opens below `b`, or undefined at the bottom (or for any other name). */
export const drillBelow = (b: string): Breakdown | undefined => properties(b)?.next as Breakdown | undefined;

/** Breakdowns whose key a conversion that has none takes from its platform order. */
export const ORDER_KEYED_BREAKDOWNS = BREAKDOWNS.filter((b) => properties(b)!.fromOrder);
