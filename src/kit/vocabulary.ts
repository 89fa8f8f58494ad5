/**
 * The names every surface shares: attribution models, windows and dates, report breakdowns and
 * report metrics with their properties, the sources a filter names and their groups, the scopes
 * of API keys. The server validates against these lists and the browser bundles (the dashboard,
 * the MCP apps) offer them, so both import them from here and no list is ever copied. This module
 * imports nothing, so esbuild bundles it into the browser as it is.
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

/** How the dashboard names each attribution date. */
export const ATTRIBUTION_DATE_LABELS: Record<AttributionDate, string> = { conversion: 'Conversion date', click: 'Click date' };

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

/** The customers report's breakdowns (/v3/customers, customers.get-ltv) and how the dashboard names them. */
export const COHORT_BREAKDOWN_LABELS = {
  first_source: 'First source',
  first_campaign: 'First campaign',
  cohort_month: 'Cohort month',
} as const;

export type CohortBreakdown = keyof typeof COHORT_BREAKDOWN_LABELS;
export const COHORT_BREAKDOWNS = Object.keys(COHORT_BREAKDOWN_LABELS) as [CohortBreakdown, ...CohortBreakdown[]];

/** The customers report's LTV horizons, in days after a customer's first order (`ltv_30` ...). */
export const LTV_DAYS = [30, 60, 90, 180, 365] as const;

/** How a metric's value goes on the wire. */
export type MetricKind =
  | 'money' // cents in, decimal of the workspace currency out (2 places)
  | 'count' // whole count
  | 'share' // attributed count, may be fractional (4 places)
  | 'ratio' // plain factor (4 places)
  | 'fraction'; // 0.2641 means 26.41 % (4 places)

export interface MetricProperties {
  kind: MetricKind;
  /** Needs read:profit (or admin:admin). */
  profit: boolean;
  /** Only a model that splits off what would have happened anyway (data_driven) gives it; null under the others. */
  incremental?: true;
}

/** Report metrics, in the order refusals list them; how each is computed is src/analytics/metrics.ts. */
export const METRIC_PROPERTIES = {
  spend: { kind: 'money', profit: false },
  revenue: { kind: 'money', profit: false },
  roas: { kind: 'ratio', profit: false },
  ctr: { kind: 'fraction', profit: false },
  cpa: { kind: 'money', profit: false },
  cr: { kind: 'fraction', profit: false },
  sessions: { kind: 'count', profit: false },
  conversions: { kind: 'share', profit: false },
  impressions: { kind: 'count', profit: false },
  clicks: { kind: 'count', profit: false },
  new_customers: { kind: 'share', profit: false },
  add_to_carts: { kind: 'count', profit: false },
  checkouts: { kind: 'count', profit: false },
  cogs: { kind: 'money', profit: true },
  payment_fees: { kind: 'money', profit: true },
  shipping_costs: { kind: 'money', profit: true },
  refunds: { kind: 'money', profit: true },
  gross_profit: { kind: 'money', profit: true },
  contribution_profit: { kind: 'money', profit: true },
  net_profit: { kind: 'money', profit: true },
  gross_margin: { kind: 'fraction', profit: true },
  net_margin: { kind: 'fraction', profit: true },
  net_roas: { kind: 'ratio', profit: true },
  incremental_conversions: { kind: 'share', profit: false, incremental: true },
  incremental_revenue: { kind: 'money', profit: false, incremental: true },
  iroas: { kind: 'ratio', profit: false, incremental: true },
} as const satisfies Record<string, MetricProperties>;

export type MetricName = keyof typeof METRIC_PROPERTIES;
export const METRIC_NAMES = Object.keys(METRIC_PROPERTIES) as [MetricName, ...MetricName[]];

/** The metrics only a key with read:profit (or admin:admin) reads. */
export const PROFIT_METRICS = METRIC_NAMES.filter((m) => METRIC_PROPERTIES[m].profit);

/** Sources of the Meta family: each is reported as `meta`. */
export const META_FAMILY = ['meta', 'facebook', 'instagram', 'messenger', 'audience_network', 'threads'] as const;

/** Accepted by every source filter, in the order the error message lists them. */
export const BASE_SOURCES = [
  'meta',
  'facebook',
  'instagram',
  'google',
  'tiktok',
  'pinterest',
  'snapchat',
  'microsoft',
  'bing',
  'openai',
  'outbrain',
  'taboola',
  'organic',
  'audience_network',
  'messenger',
  'threads',
  'whatsapp',
  'email',
] as const;

/** Pixel-side filters (events, sessions, conversions, report) also take the creator channel. */
export const PIXEL_SOURCES = [...BASE_SOURCES, 'creator'] as const;

/** Sources that are not ad platforms: they have no ad rows and no spend. */
export const NON_AD_SOURCES = new Set(['organic', 'email', 'creator', 'influencer']);

export const AD_PLATFORMS = BASE_SOURCES.filter((s) => !NON_AD_SOURCES.has(s));

/**
 * Named groups of sources a tool's source filter also takes (docs/attribution.md, "Source groups";
 * metadata.list_schema lists them): a group stands for its member sources, so an assistant can ask
 * for "paid social" without knowing each platform. Google and Microsoft are whole ad platforms:
 * their ad rows do not say which network (search, video, display) an ad ran on.
 */
export const SOURCE_GROUPS = {
  paid_social: ['meta', 'tiktok', 'pinterest', 'snapchat'],
  paid_search: ['google', 'microsoft'],
  native_ads: ['outbrain', 'taboola'],
  /** Every ad platform (AD_PLATFORMS), each family once. */
  paid: ['meta', 'google', 'tiktok', 'pinterest', 'snapchat', 'microsoft', 'openai', 'outbrain', 'taboola', 'whatsapp'],
} as const satisfies Record<string, readonly (typeof BASE_SOURCES)[number][]>;

/**
 * The scopes an API key may hold (docs/api.md, "Keys and permissions"), in the order refusals list
 * them, each with the source whose channels it opens: `read:<source>` for every pixel source and
 * `read:creators` for the creator channel; `read:profit`, `write:drafts` and `admin:admin` open
 * none (what they allow instead is src/analytics/permissions.ts).
 */
export const KEY_SCOPE_SOURCES: readonly (readonly [string, (typeof PIXEL_SOURCES)[number] | null])[] = [
  ...PIXEL_SOURCES.map((source) => [`read:${source}`, source] as const),
  ['read:creators', 'creator'],
  ['read:profit', null],
  ['write:drafts', null],
  ['admin:admin', null],
];

export const KEY_SCOPES: readonly string[] = KEY_SCOPE_SOURCES.map(([scope]) => scope);
