import { z } from 'zod';

/**
 * The result shape of every tool, keyed by tool name. tools/list sends only its members and their
 * types as the tool's MCP `outputSchema` (json-schema.ts), which clients such as the official SDK
 * validate `structuredContent` against; docs/tools.md lists the fields below them. Computed results
 * list their fields with types; stored objects (notes, lists, offers, ...) are plain objects, whose
 * fields the tool descriptions name. test/mcp/output-schemas.test.ts calls every tool through the
 * SDK client and checks each result against the whole shape, to keep the two in step.
 */

const str = z.string();
const num = z.number();
const bool = z.boolean();
const numOrNull = z.number().nullable();
const strs = z.array(str);
/** An object whose fields are not spelled out: report rows and totals (metric names vary), settings, cells. */
const open = z.looseObject({});
const fields = <T extends z.ZodRawShape>(shape: T) => z.object(shape).partial();
const list = <T extends z.ZodRawShape>(shape: T) => z.array(fields(shape));

const range = { date_from: str, date_to: str };
const period = { start_date: str, end_date: str };
/** A stored object (note, list, offer, ...): id as a string, its fields, timestamps; not spelled out. */
const stored = open;
const storedList = z.array(open);
const modelResult = z.record(str, fields({ revenue: num, conversions: num, spend: num, roas: numOrNull, cpa: numOrNull }));

export const TOOL_OUTPUTS: Record<string, z.ZodObject> = {
  workspaces_list: z.strictObject({ workspaces: list({ id: str, name: str }) }),
  'metadata.list_schema': z.strictObject({
    schema: fields({
      workspace: fields({ id: str, name: str, currency: str, timezone: str }),
      scopes: strs,
      metrics: list({ name: str, kind: str, needs_profit_access: bool, available: bool }),
      default_metrics: strs,
      breakdowns: strs,
      intervals: strs,
      attribution: open,
      sources: list({ source: str, readable: bool }),
      dashboard_settings: open,
    }),
  }),
  'analytics.query': z.strictObject({ rows: z.array(open), totals: open, settings_applied: open, pagination: open }),
  'analytics.profit-summary': z.strictObject({
    profit: fields({ ...period, currency: str, totals: open, periods: z.array(open), settings_applied: open }),
  }),
  'attribution.get-data': z.strictObject({
    attribution: fields({
      ...period, models: strs, attribution_window: num, attribution_date: str,
      channels: z.array(z.looseObject({ source: str })), totals: modelResult,
    }),
  }),
  'journeys.get-data': z.strictObject({
    journeys: fields({ ...range, attribution_window: num, paths: list({ path: strs, touchpoints: num, conversions: num, revenue: num, avg_sessions_before_conversion: numOrNull }) }),
  }),
  'correlations.get-data': z.strictObject({
    correlations: fields({
      ...range, days: num,
      channels: list({ channel: str, spend: num, revenue: num, roas: numOrNull, correlation: numOrNull, series: list({ date: str, spend: num, revenue: num }) }),
    }),
  }),
  'hourly.get-data': z.strictObject({
    hourly: fields({ ...range, timezone: str, hours: list({ hour: num, sessions: num, conversions: num, revenue: num, cr: numOrNull }) }),
  }),
  'map.get-data': z.strictObject({
    map: fields({ ...range, level: str, places: list({ country_code: str, city: str, sessions: num, conversions: num, revenue: num, cr: numOrNull }) }),
  }),
  'weather.get-data': z.strictObject({
    weather: fields({
      ...range,
      days: list({ date: str, country_code: str, city: str, temperature_c: num, precipitation_mm: num, condition: str, conversions: num, revenue: num }),
      by_condition: list({ condition: str, days: num, conversions: num, revenue_per_day: num }),
      temperature_revenue_correlation: numOrNull,
      precipitation_revenue_correlation: numOrNull,
    }),
  }),
  'ad-fatigue.get-scores': z.strictObject({
    ad_fatigue: fields({
      ...range,
      ads: list({
        source: str, ad_id: str, ad_name: str, campaign_name: str, days: num, spend: num, ctr_early: numOrNull, ctr_late: numOrNull,
        ctr_change: numOrNull, frequency_early: numOrNull, frequency_late: numOrNull, frequency_change: numOrNull, score: numOrNull,
      }),
    }),
  }),
  'geo-testing.get-tests': z.strictObject({ tests: storedList }),
  'geo-testing.get-candidates': z.strictObject({
    geo_candidates: fields({
      ...range, level: str,
      candidates: list({ country_code: str, city: str, conversions: num, revenue: num, revenue_share: numOrNull, days_with_orders: num, daily_revenue_mean: num, daily_revenue_cv: numOrNull }),
    }),
  }),
  'ab-testing.get-tests': z.strictObject({ ...range, tests: list({ test_id: str, variants: strs, sessions: num, first_seen: str, last_seen: str }) }),
  'ab-testing.get-results': z.strictObject({
    results: fields({
      ...range, test_id: str, control_variant: str,
      variants: list({
        variant: str, is_control: bool, sessions: num, converted_sessions: num, conversions: num, revenue: num, cr: numOrNull,
        revenue_per_session: numOrNull, uplift: numOrNull, significance: z.looseObject({}).nullable(),
      }),
    }),
  }),
  'health-center.get-summary': z.strictObject({
    health: fields({ ...range, checked_at: str, status: str, pixel: open, conversion_matching: open, ad_data: open }),
  }),
  'loyalty.get-programs': z.strictObject({ programs: storedList }),
  'loyalty.get-analytics': z.strictObject({
    loyalty: fields({
      ...range, customers: num, repeat_customers: num, repeat_rate: numOrNull, revenue: num, repeat_revenue_share: numOrNull,
      buckets: list({ orders: str, customers: num, revenue: num }),
    }),
  }),
  'library.get-assets': z.strictObject({ ...range, assets: storedList }),
  'labels.get-labels': z.strictObject({ labels: storedList }),
  'labels.label-asset': z.strictObject({ label: stored }),
  'lists.get-lists': z.strictObject({ lists: storedList, list: stored, columns: storedList, items: storedList, total_items: num }).partial(),
  'lists.create': z.strictObject({ list: stored }),
  'lists.add-column': z.strictObject({ column: stored }),
  'lists.add-items': z.strictObject({ items: storedList }),
  'lists.update-items': z.strictObject({ items: storedList }),
  'lists.add-top-creatives': z.strictObject({ ...range, items: storedList }),
  'notes.get-notes': z.strictObject({ notes: storedList }),
  'notes.save-note': z.strictObject({ note: stored }),
  'notes.update': z.strictObject({ note: stored }),
  'segments.get-segments': z.strictObject({ segments: storedList }),
  'segments.create': z.strictObject({ segment: stored }),
  'segments.update': z.strictObject({ segment: stored }),
  'marketing-angles.get-angles': z.strictObject({ angles: storedList }),
  'marketing-angles.create': z.strictObject({ angle: stored }),
  'marketing-angles.update': z.strictObject({ angle: stored }),
  'topics.get-topics': z.strictObject({ topics: storedList }),
  'topics.add': z.strictObject({ topics: storedList, skipped: strs, total_tracked: num }),
  'surveys.get-responses': z.strictObject({ surveys: storedList, survey: stored, responses: storedList }).partial(),
  'surveys.create': z.strictObject({ survey: stored }),
  'forms.get-forms': z.strictObject({ forms: storedList }),
  'forms.add-fields': z.strictObject({ form: stored }),
  'offers.get-offers': z.strictObject({ offers: storedList }),
  'offers.get-opportunities': z.strictObject({
    opportunities: fields({
      ...range,
      cart_abandonment: list({ channel: str, cart_sessions: num, converted_cart_sessions: num, abandonment_rate: numOrNull, opportunity: bool }),
      coupons: list({ coupon_code: str, conversions: num, revenue: num, new_customer_share: numOrNull }),
    }),
  }),
  'offers.create': z.strictObject({ offer: stored }),
  'offers.update': z.strictObject({ offer: stored }),
  'creators.get-creators': z.strictObject({ creators: storedList }),
  'creators.get-programs': z.strictObject({ programs: storedList }),
  'creators.create-program': z.strictObject({ program: stored }),
  'creators.create': z.strictObject({ creator: stored }),
  'creators.update': z.strictObject({ creator: stored }),
  'ai-visibility.get-results': z.strictObject({ prompts: storedList }),
  'ai-visibility.create-prompt': z.strictObject({ prompt: stored }),
  'dashboards.get-dashboards': z.strictObject({ dashboards: storedList, custom_reports: storedList }),
  'dashboards.create-report': z.strictObject({ report: stored }),
  'workflows.get-rules': z.strictObject({ workflows: storedList }),
  'workflows.get-executions': z.strictObject({ executions: storedList }),
  'workflows.create': z.strictObject({ workflow: stored }),
  'audit-log.get-log': z.strictObject({ entries: list({ id: str, actor: str, action: str, target: str, details: open, created_at: str }) }),
};
