import { z } from 'zod';
import { NO_ADS_ACCESS, NO_PIXEL_ACCESS, NO_PROFIT_ACCESS, NO_SOURCE_ACCESS } from '../../analytics/permissions.ts';
import { BASE_SOURCES, PIXEL_SOURCES } from '../../analytics/sources.ts';
import { acceptedMessage } from '../../kit/choices.ts';
import { ATTRIBUTION_WINDOWS } from '../../kit/vocabulary.ts';
import { DEFAULT_METRICS } from '../../analytics/metrics.ts';
import { NO_RECONCILIATION_ACCESS, RECONCILIATION_FIGURES, TOO_LONG } from '../../analytics/reconciliation.ts';
import { LTV_NAMES } from '../../analytics/customers.ts';
import { DATA_API_PREFIX, DATA_ENDPOINTS } from '../endpoints.ts';
import type { QuerySpec } from '../params.ts';
import { BEARER_FORM } from '../../http/auth.ts';
import { timeZoneMessage } from '../../kit/calendar/zones.ts';
import { DATE_MESSAGE, boundMessage } from '../../kit/calendar/range.ts';

/**
 * The data API as an OpenAPI 3.1 document (served at /openapi.json; docs/api.md). Its paths are the
 * route table (`endpoints.ts`); parameters come from the zod schemas that validate each endpoint's
 * query (`z.toJSONSchema`, input side: query values are strings on the wire), with the aliases
 * each endpoint accepts; OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what zod emits.
 * Descriptions, row fields and the contract's error messages are written here.
 */

type Json = Record<string, unknown>;

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  start_date: 'First day, YYYY-MM-DD (a calendar day of `timezone`), or a full timestamp used as given (UTC unless it has an offset); default 7 days ago',
  end_date: 'Last day, inclusive up to 23:59:59 of `timezone`, or a full timestamp; default today',
  timezone: 'IANA time zone (e.g. Europe/Berlin) whose calendar days the dates and day buckets are; default UTC. Timestamps in rows stay UTC',
  limit: 'Rows per page, default 100; above 500 is clamped to 500',
  offset: 'Rows skipped, default 0',
  name: 'Name filter; `*` matches any run of characters, everything else is literal. On /report: the conversion names counted, instead of the workspace\'s conversion_names setting',
  session_id: 'Only this session (digits)',
  visitor_id: 'Only this visitor (digits)',
  source: 'Comma-separated channels; meta covers its family, creator covers influencer',
  exclude_source: 'Comma-separated channels removed from the result (never widens what the key sees)',
  group_by: 'Comma-separated dimensions; the answer is then aggregate rows',
  transaction_id: 'Only this transaction',
  customer_id: 'Only this customer',
  is_new_customer: '0, 1, true or false',
  adaccount_id: 'Only this ad account',
  campaign_id: 'Only this campaign',
  adgroup_id: 'Only this ad group',
  ad_id: 'Only this ad',
  metrics: `Comma-separated metrics; default ${DEFAULT_METRICS.join(', ')}; profit metrics need read:profit`,
  breakdown: 'Row dimension; omit for totals only',
  interval: 'Time bucket of the rows; omit for one period',
  attribution_model: 'Default: the workspace setting (last_click)',
  attribution_window: `Lookback days: ${ATTRIBUTION_WINDOWS.slice(0, -1).join(', ')} or ${ATTRIBUTION_WINDOWS.at(-1)}; default: the workspace setting (7)`,
  attribution_date: 'conversion: the window counts back from the conversion; click: credit is booked on the click date',
  campaign: 'Only credits, sessions and ads rows of this campaign id (drill-down below a source)',
  adgroup: 'Only credits, sessions and ads rows of this ad group id (drill-down below a campaign)',
  ad: 'Only credits, sessions and ads rows of this ad id',
  format: 'ndjson (default: one JSON row per line), csv (RFC 4180 with a header row) or parquet',
};

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const num = { type: 'number' };
/** Row-level responses carry every integer as a string of digits (docs/api.md, wire types). */
const rowOf = (fields: string[], arrays: string[] = []): Json => ({
  type: 'object',
  properties: Object.fromEntries([...fields.map((f) => [f, str]), ...arrays.map((f) => [f, strings])]),
});
const CHANNEL_FIELDS = ['adv_source', 'adv_campaign_id', 'adv_adgroup_id', 'adv_ad_id'];
const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'];
const ENTRY_META = ['entry_meta_keys', 'entry_meta_values'];

const EVENT = rowOf(
  ['store_id', 'dt', 'name', 'session_id', 'visitor_id', 'visitor_timezone', ...CHANNEL_FIELDS, 'adv_asset_group_id', ...UTM_FIELDS,
    'device_type', 'country_code', 'hostname', 'pathname', 'referrer'],
  ENTRY_META,
);
const SESSION = rowOf(
  ['store_id', 'visitor_id', 'session_id', 'session_start_dt', 'session_end_dt', 'session_duration_seconds', 'is_bounce',
    'session_entry_page', 'session_exit_page', 'events', 'pageviews', 'add_to_carts', 'initiated_checkouts', 'view_contents', 'contacts',
    'newsletter_signups', 'completed_registrations', 'app_installs', 'add_payment_infos', ...CHANNEL_FIELDS, 'adv_asset_group_id',
    ...UTM_FIELDS, 'device_type', 'country_code', 'referrer', 'pathname', 'hostname'],
  ENTRY_META,
);
const CONVERSION = rowOf([
  'store_id', 'dt', 'name', 'session_id', 'visitor_id', 'customer_id', 'transaction_id', 'is_new_customer', 'transaction_gross_revenue',
  'transaction_currency', 'transaction_country_code', 'transaction_city', 'hostname', ...CHANNEL_FIELDS, ...UTM_FIELDS,
]);
const AD = rowOf([
  'store_id', 'dt', 'adaccount_id', 'source', 'campaign_id', 'campaign_name', 'adgroup_id', 'adgroup_name', 'ad_id', 'ad_name',
  'spend', 'impressions', 'clicks', 'reach',
]);
/** Aggregates are JSON numbers; the members depend on the request (breakdown, group_by, metrics). */
const AGGREGATE_ROW = { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } };

const bool = { type: 'boolean' };
/** The settings a report's numbers were computed with: the request's, else the workspace's (docs/attribution.md). */
const SETTINGS_APPLIED = {
  type: 'object',
  properties: {
    timezone: { ...str, description: 'The IANA zone whose calendar days the dates and buckets are' },
    attribution_model: str,
    attribution_window: num,
    attribution_date: str,
    ignore_sources: strings,
    include_unattributed: bool,
    net_merchandise_revenue: bool,
    refund_netting: bool,
    excluded_transaction_ids: { ...strings, description: 'The first 100 of the list' },
    excluded_transaction_count: num,
    platform_revenue: str,
    new_customer_correction: bool,
    payment_fee_percent: num,
    payment_fee_fixed: num,
    currency: str,
    conversion_names: { ...strings, description: 'The conversion names counted (`*` wildcards): the request\'s name, else the workspace\'s conversion_names' },
    attribution_fallback: { type: ['string', 'null'], description: 'data_driven only: `linear` when the scope had too little data to fit, else null' },
    calibrated_sources: { ...strings, description: 'data_driven only: the sources whose fitted lift an experiment (lift test, finished geo test) replaced' },
  },
};

const PAGINATION = {
  type: 'object',
  properties: { limit: num, offset: num, has_more: { type: 'boolean' }, next_offset: { type: ['number', 'null'] }, start_date: str, end_date: str },
};

const envelope = (row: Json, extra: Json = {}): Json => ({
  type: 'object',
  properties: { data: { type: 'array', items: row }, pagination: PAGINATION, ...extra },
  required: ['data', 'pagination'],
});

const unknownSource = (accepted: readonly string[]) => `Unknown source: <value>. Accepted sources: ${accepted.join(', ')}`;

/** What an endpoint with a page (`limit`, `offset`) can answer besides. */
const PAGE_ERRORS = ['limit must be a positive integer', 'offset must be a non-negative integer'];

/** Messages every endpoint can answer with, by status. */
const COMMON_ERRORS: Record<number, string[]> = {
  400: [
    'Missing x-api-key header',
    'Missing client-secret header',
    `Invalid Authorization header: expected ${BEARER_FORM}, or the x-api-key and client-secret headers`,
    'Unknown parameter: <name>. Did you mean <nearest known name>?',
    timeZoneMessage('<value>'),
    DATE_MESSAGE,
    'start_date must be before end_date',
  ],
  401: ['Invalid API key', 'Invalid client secret'],
  405: ['Method not allowed'],
  429: ['Rate limit exceeded', 'Too many concurrent requests'],
  503: ['Query timed out', 'Analytics store unavailable'],
};

const STATUS_MEANING: Record<number, string> = {
  400: 'Missing credentials or an invalid parameter',
  401: 'Wrong API key or client secret (a revoked key is unknown)',
  403: 'The key may not see what was asked for',
  404: 'Nothing of that name is in the request\'s scope for this key',
  405: 'Only GET (and HEAD) are served',
  429: 'Over the key\'s rate limit or daily quota, or too many of its requests in flight; see Retry-After (and the RateLimit headers for the rate limits)',
  503: 'The analytics query ran over its time limit (STORELENS_QUERY_TIMEOUT_MS); narrow the request and try again',
};

/** What the document says about one endpoint beyond its parameters. */
interface Description {
  summary: string;
  description: string;
  response: Json;
  errors: Record<number, string[]>;
  /** Media types of a 200 that is not one JSON document (the exports); default application/json. */
  download?: string[];
}

const EXPORT_TYPES = ['application/x-ndjson', 'text/csv', 'application/vnd.apache.parquet'];

const rowExport = (rows: string, row: Json, errors: Record<number, string[]>): Description => ({
  summary: `Every ${rows} row in scope as one download`,
  description:
    `The rows /v3/${rows} pages through, with the same filters, permissions, wire types and order, in one stream: ` +
    'NDJSON (one row per line), CSV (header row; arrays as JSON text; cells that a spreadsheet would run as a formula start with an apostrophe) ' +
    'or Parquet. No page and no limit; see docs/exports.md for time limits and resuming.',
  response: row,
  errors: { ...errors, 400: [...(errors[400] ?? []), 'Invalid format: <value>. Accepted values: ndjson, csv, parquet'] },
  download: EXPORT_TYPES,
});

const pixelErrors = (extra400: string[] = []) => ({
  400: [unknownSource(PIXEL_SOURCES), ...extra400],
  403: [NO_PIXEL_ACCESS, NO_SOURCE_ACCESS],
});

const EVENTS_ERRORS = pixelErrors(['session_id must be numeric', 'visitor_id must be numeric']);
const ADS_ERRORS = { 400: [unknownSource(BASE_SOURCES)], 403: [NO_ADS_ACCESS, NO_SOURCE_ACCESS] };

const figureProperties = Object.fromEntries(RECONCILIATION_FIGURES.map((name) => [name, num]));
const nullableNum = { type: ['number', 'null'] };
const cohortProperties = {
  new_customers: num, repeat_rate: nullableNum, avg_days_to_second_order: nullableNum, ...Object.fromEntries(LTV_NAMES.map((name) => [name, nullableNum])),
};

const DESCRIPTIONS: Record<string, Description> = {
  '/events': {
    summary: 'Tracked events',
    description: 'Events of the key\'s visible channels, by time then id. Purchases are conversions, not events.',
    response: envelope(EVENT),
    errors: EVENTS_ERRORS,
  },
  '/sessions': {
    summary: 'Sessions',
    description: 'Sessions derived from events, with per-session counters and the landing attribution.',
    response: envelope(SESSION),
    errors: EVENTS_ERRORS,
  },
  '/conversions': {
    summary: 'Conversions',
    description: 'Conversion rows with the channel of their own session (session-level last touch), or aggregate rows with group_by.',
    response: envelope({ oneOf: [CONVERSION, AGGREGATE_ROW] }),
    errors: pixelErrors([
      'is_new_customer must be one of 0,1,true,false',
      'Unknown group_by dimension: <value>. Accepted dimensions: ...',
    ]),
  },
  '/ads': {
    summary: 'Ad performance',
    description: 'One row per ad and day (newest import wins), with totals over every page. Money in cents.',
    response: envelope(AD, {
      totals: {
        type: 'object',
        properties: { total_ads: num, total_spend: num, total_impressions: num, total_clicks: num, total_reach: num },
      },
    }),
    errors: ADS_ERRORS,
  },
  '/report': {
    summary: 'Attributed report (the dashboard numbers)',
    description:
      'Metrics per breakdown value and/or interval bucket under an attribution model, with totals over the whole scope. ' +
      'Money as decimals in the workspace currency; ratios and percentages as fractions; null where a metric cannot be computed.',
    response: { ...envelope(AGGREGATE_ROW, { totals: AGGREGATE_ROW, settings_applied: SETTINGS_APPLIED }), required: ['data', 'totals', 'pagination', 'settings_applied'] },
    errors: {
      400: [unknownSource(PIXEL_SOURCES), 'Invalid <parameter>: <value>. Accepted values: ...'],
      403: [NO_PROFIT_ACCESS, NO_PIXEL_ACCESS, NO_SOURCE_ACCESS],
    },
  },
  '/attribution': {
    summary: 'Why one conversion was credited',
    description:
      'The conversion with transaction_id (a sale, the newest in the range; default range: the 90 days before today): its touchpoints ' +
      'as the models see them, every model\'s share per reporting source side by side, and the Markov chain\'s removal effects ' +
      'with how many converting and non-converting journeys it stood on, and data_driven\'s lifts on the chance to buy used for this conversion ' +
      '(a lift or geo test\'s where one covers the conversion, those sources named in calibrated_sources, else the fitted ones), ' +
      'the baseline, how many visitors and buyers it stood on and its method (linear_fallback: too little data), and the revenue of this ' +
      'conversion each source caused. Channels the key cannot see are left out before the models run.',
    response: {
      type: 'object',
      properties: {
        data: {
          type: 'object',
          properties: {
            transaction_id: str, dt: str, revenue: num, source: str,
            touchpoints: { type: 'array', items: rowOf(['session_id', 'started_at', 'source', 'raw_source', 'campaign', 'adgroup', 'ad', 'campaign_name', 'adgroup_name', 'ad_name']) },
            credit: { type: 'object', additionalProperties: { type: 'object', additionalProperties: num } },
            removal_effects: { type: 'object', additionalProperties: num },
            paths: { type: 'object', properties: { converting: num, non_converting: num } },
            lifts: { type: 'object', additionalProperties: num },
            calibrated_sources: { type: 'array', items: str },
            baseline: num,
            fit: { type: 'object', properties: { visitors: num, buyers: num, method: str } },
            incremental_revenue: { type: 'object', additionalProperties: num },
          },
        },
      },
      required: ['data'],
    },
    errors: {
      400: [unknownSource(PIXEL_SOURCES), 'transaction_id is required', 'Invalid <parameter>: <value>. Accepted values: ...'],
      403: [NO_PIXEL_ACCESS, NO_SOURCE_ACCESS],
      404: ['Not found'],
    },
  },
  '/reconciliation': {
    summary: 'Storelens against the shop, per day',
    description:
      'Per local day of the range (timezone, UTC by default) and in totals: the shop\'s orders and revenue, the report\'s conversions and ' +
      'revenue under the workspace settings, and each difference named (cancelled, test, matched, unmatched, pixel-only, excluded, refunds); ' +
      'unexplained_revenue is 0 when the books agree. Money as decimals. Needs a key that sees every channel. Reading it: docs/books.md.',
    response: {
      type: 'object',
      properties: { data: { type: 'array', items: { type: 'object', properties: { date: str, ...figureProperties } } }, totals: { type: 'object', properties: figureProperties } },
      required: ['data', 'totals'],
    },
    errors: {
      400: [TOO_LONG],
      403: [NO_RECONCILIATION_ACCESS],
    },
  },
  '/customers': {
    summary: 'New and returning customers, repeat rate and lifetime value',
    description:
      'A customer is a customer_id (else its visitor); an order is a counted conversion that is a sale. The cohort: customers whose ' +
      'first order ever falls in the range; returning: an order in the range after a first order before it. One row per breakdown ' +
      'value (first_source or first_campaign of the first order under first click with attribution_window, no touchpoint: organic; ' +
      'cohort_month: the month of the first order, with revenue_by_month per customer), or one row without breakdown. ltv_N: average ' +
      'revenue per customer of the orders placed less than N days after the first, over the members whose first order is at least ' +
      'N days old (null when none is). Customers whose first touch is a channel the key cannot see count nowhere. Money as decimals.',
    response: {
      type: 'object',
      properties: {
        data: { type: 'array', items: { type: 'object', properties: { first_source: str, first_campaign: str, cohort_month: str, ...cohortProperties, revenue_by_month: { type: 'array', items: num } } } },
        totals: { type: 'object', properties: { customers: num, returning_customers: num, revenue: num, ...cohortProperties } },
      },
      required: ['data', 'totals'],
    },
    errors: {
      400: ['Invalid <parameter>: <value>. Accepted values: ...'],
      403: [NO_PIXEL_ACCESS],
    },
  },
  '/export/events': rowExport('events', EVENT, EVENTS_ERRORS),
  '/export/sessions': rowExport('sessions', SESSION, EVENTS_ERRORS),
  '/export/conversions': rowExport('conversions', CONVERSION, pixelErrors(['is_new_customer must be one of 0,1,true,false'])),
  '/export/ads': rowExport('ads', AD, ADS_ERRORS),
  '/export/mmm': {
    summary: 'Marketing-mix-model input',
    description:
      'One CSV record per day or week (Monday) of the range: date, revenue, conversions and sessions as /v3/report counts them with the ' +
      'workspace settings, then <source>_spend, <source>_impressions and <source>_clicks for each reporting source with spend in the range. ' +
      'With geo=city, one record per date and city. Loading it into Meridian, Robyn and PyMC-Marketing: docs/exports.md.',
    response: { ...rowOf(['date', 'revenue', 'conversions', 'sessions']), additionalProperties: str },
    errors: {
      400: [acceptedMessage('granularity', '<value>', ['day', 'week']), acceptedMessage('geo', '<value>', ['city'])],
      403: [NO_PIXEL_ACCESS],
    },
    download: ['text/csv'],
  },
};

function parametersOf(query: QuerySpec): Json[] {
  const { properties } = z.toJSONSchema(query.schema, { io: 'input' }) as { properties: Record<string, Json> };
  const parameters: Json[] = Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: PARAMETER_DESCRIPTIONS[name] ?? '',
    schema,
  }));
  for (const [alias, canonical] of Object.entries(query.aliases ?? {})) {
    parameters.push({ name: alias, in: 'query', required: false, description: `Alias of \`${canonical}\``, schema: properties[canonical] });
  }
  return parameters;
}

/** The `detail` an example of a contract message shows beside it (the help the message itself leaves out). */
const EXAMPLE_DETAILS = new Map([[DATE_MESSAGE, boundMessage('start_date', '01/11/2026', 'form', 'day or timestamp')]]);

function errorResponse(status: number, messages: string[]): Json {
  return {
    description: `${STATUS_MEANING[status]}. Messages: ${messages.map((m) => `\`${m}\``).join('; ')}`,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        examples: Object.fromEntries(messages.map((message, i) => {
          const detail = EXAMPLE_DETAILS.get(message);
          return [`e${i + 1}`, { value: detail ? { message, detail } : { message } }];
        })),
      },
    },
  };
}

function operationOf(path: string, query: QuerySpec): Json {
  const described = DESCRIPTIONS[path];
  if (!described) throw new Error(`The OpenAPI document has no description of ${path}`);
  const errors: Record<number, string[]> = { ...COMMON_ERRORS };
  if ('limit' in query.schema.shape) errors[400] = [...errors[400]!, ...PAGE_ERRORS];
  for (const [status, messages] of Object.entries(described.errors)) errors[Number(status)] = [...(errors[Number(status)] ?? []), ...messages];
  return {
    get: {
      operationId: path.slice(1).replace('/', '_'),
      summary: described.summary,
      description: described.description,
      security: [{ apiKey: [], clientSecret: [] }, { keyPair: [] }],
      parameters: parametersOf(query),
      responses: {
        200: described.download
          ? { description: 'A download', content: Object.fromEntries(described.download.map((type) => [type, { schema: described.response }])) }
          : { description: 'A page of results', content: { 'application/json': { schema: described.response } } },
        ...Object.fromEntries(Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b)).map(([status, messages]) => [status, errorResponse(Number(status), messages)])),
      },
    },
  };
}

export function openApiDocument(serverUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Storelens data API',
      version: '3',
      description:
        'Read-only access to one workspace\'s events, sessions, conversions, ad performance and attributed report. ' +
        'The API key decides the workspace and what the key may see. Reference: docs/api.md in the repository.',
    },
    servers: [{ url: serverUrl }],
    paths: Object.fromEntries(DATA_ENDPOINTS.map(({ path, query }) => [`${DATA_API_PREFIX}${path}`, operationOf(path, query)])),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        clientSecret: { type: 'apiKey', in: 'header', name: 'client-secret' },
        keyPair: { type: 'http', scheme: 'bearer', description: `Instead of the two headers: \`Authorization: ${BEARER_FORM}\`` },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { ...str, description: 'The contract\'s message, word for word where it names one' },
            detail: { ...str, description: 'When there is help to give (the parameter, the accepted form, the value sent): what is wrong, beside a message the contract fixes' },
          },
          required: ['message'],
        },
      },
    },
  };
}
