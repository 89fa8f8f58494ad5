import type { QueryParams } from '../../store/clickhouse.ts';
import { DAY_MS } from '../../kit/calendar/days.ts';
import { rangeDays } from '../../kit/calendar/range.ts';
import { Conditions, LOCAL_DATE, timestampParam } from '../sql.ts';
import { addCountedNames } from '../conversion-names.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql, type LandingColumn } from '../queries/sessions/session-sql.ts';
import {
  BASE_TOUCH_FIELDS, IDS_CTE, MODELS, TOUCH_FIELDS, attributionColumns, bookedCredits, conversionIdentitySql, creditedTouchesSql, hasShares,
  modelCreditsSql, sessionIdentitySql, touchSql,
  type ModelName, type TouchField,
} from '../attribution/index.ts';
import { DIMENSIONS, INTERVALS, reportingSourceSql, type Dimension } from '../dimensions.ts';
import type { ReportPlan } from './plan.ts';
import { METRICS, metricParts, metricSql, type Parts } from '../metrics.ts';
import { EXCLUDED_TRANSACTIONS_SQL, excludedListId } from '../queries/settings/excluded-transactions.ts';
import { ORDER_IDS, SALE_ORDER, soldSql } from '../sales.ts';
import { NAMED_BREAKDOWNS, ORDER_KEYED_BREAKDOWNS } from '../../kit/vocabulary.ts';
import { segmentCustomersSql } from '../queries/segments/segment-members.ts';

/**
 * The report as one ClickHouse query: the page of rows, the totals over the whole scope and the
 * row count (a window sum computed before LIMIT). Everything runs in the engine: each buyer's
 * sessions become one array of touchpoints, each conversion filters that array to its window and
 * the model maps it to weights; only the aggregated rows come back to Node. ClickHouse spends about
 * half of this query's time analysing and planning it, so every query level counts.
 *
 *   session_rows  one row per session in the scan range (sessions table: landing, funnel counts)
 *   ids           visitor -> customer_id, so visitors that share a customer share a path
 *   conv          conversions in scope with revenue and profit parts after the workspace settings
 *   paths         identity -> Array(Touch) of its sessions in the scan range: the tagged ones (the
 *                 only ones a model credits), every one when the conversion's own session is read
 *   credits       one row per (conversion, credited touch) with its weight, on the booking date;
 *                 `paths RIGHT JOIN conv`, so the engine builds its hash table from the few
 *                 conversions and streams the many paths past it (`conv LEFT JOIN paths` hashed
 *                 the paths: up to twice the time, docs/performance.md)
 * A report that reads nothing of the touch a single-touch model credits (the default report;
 * wholeConversions) has neither `ids` nor `paths`: its credits are the conversions themselves.
 * Row parts come from three sources, united and summed per key: ads (spend, impressions, clicks),
 * sessions, credits.
 */

const TS = "DateTime64(3, 'UTC')";
const ZERO = 'toFloat64(0)';

/** Landing fields a report can read, renamed to the touch vocabulary. */
const SESSION_COLUMNS = {
  visitor_id: 'visitor_id', adv_source: 'channel', adv_campaign_id: 'campaign', adv_adgroup_id: 'adgroup', adv_ad_id: 'ad',
  utm_source: 'utm_source', utm_medium: 'utm_medium', utm_campaign: 'utm_campaign', utm_content: 'utm_content',
  utm_term: 'utm_term', referrer: 'referrer', pathname: 'landing_page',
} as const;

/**
 * The landing fields this report needs: the buyer's visitor (for `paths`), the channel and the
 * touch fields. Every column left out saves analysis time (`session_rows` is analysed once per reference).
 */
function sessionColumns(fields: readonly TouchField[], plan: ReportPlan, paths: boolean): string[] {
  const landing = plan.breakdown ? (DIMENSIONS[plan.breakdown] as Dimension).landing : undefined;
  return Object.entries(SESSION_COLUMNS)
    .filter(([, name]) => (name === 'visitor_id' && paths) || name === 'channel' || fields.includes(name as TouchField))
    .map(([column, name]) => `${landingField(column as LandingColumn)} AS ${name}`)
    .concat(landing ? [`${landingField(landing)} AS ${landing}`] : []);
}

/** Touch fields the organic fallback takes from the conversion's own session. */
const OWN_SESSION_FIELDS: readonly TouchField[] = ['utm_source', 'utm_campaign', 'utm_medium', 'utm_term', 'utm_content', 'referrer', 'landing_page'];

/** How far before and after the report range events and conversions are read. */
function scanBounds(plan: ReportPlan) {
  const window = plan.attribution.windowDays * DAY_MS;
  const click = plan.attribution.dateMode === 'click';
  return {
    // Touchpoints up to `window` before the earliest conversion that can book into the range.
    scanStart: plan.range.startMs - window,
    // In click mode a click inside the range can book a conversion up to `window` later.
    scanEnd: click ? plan.range.endMs + window : plan.range.endMs,
    convStart: plan.range.startMs,
    convEnd: click ? plan.range.endMs + window : plan.range.endMs,
  };
}

/** Touch fields the breakdown groups by, beside those every model needs. */
function touchFields(plan: ReportPlan): TouchField[] {
  const names = TOUCH_FIELDS.map(([name]) => name) as TouchField[];
  const used = plan.breakdown
    ? DIMENSIONS[plan.breakdown].keys.map((k) => k.credit.replace(/^touch\./, '')).filter((f) => names.includes(f as TouchField))
    : [];
  const drill = drillsOf(plan).map((d) => d.touch);
  return [...new Set([...BASE_TOUCH_FIELDS, ...(used as TouchField[]), ...drill])];
}

/**
 * Whether the settings leave transactions out: only then does the statement read their list (a
 * subquery is one more level for the engine to analyse).
 */
const excludesTransactions = (plan: ReportPlan) => plan.settings.excluded_transaction_ids.length > 0;

/** The drill-down ids of a plan: the touch field, session column and ads column each must match. */
const DRILLS = NAMED_BREAKDOWNS.map((name) => {
  const key = DIMENSIONS[name].keys[1];
  return { name, touch: name, session: key.session, ads: key.ads };
});

const drillsOf = (plan: ReportPlan) => DRILLS.filter((d) => plan[d.name] !== null);

/**
 * Every value the report binds: the scope, the scan bounds and the workspace settings; without
 * `paths` (wholeConversions), none of what only the buyers' paths read.
 */
export function reportParams(plan: ReportPlan, paths = true): QueryParams {
  const s = plan.settings;
  const b = scanBounds(plan);
  return {
    store_id: plan.workspaceId,
    start: timestampParam(plan.range.startMs),
    end: timestampParam(plan.range.endMs),
    ...rangeDays(plan.range),
    ...(plan.interval ? { tz: plan.range.timeZone } : {}),
    ...(paths ? {
      scan_start: timestampParam(b.scanStart),
      scan_end: timestampParam(b.scanEnd),
      window_days: plan.attribution.windowDays,
      excluded_channels: plan.attribution.excludedChannels,
    } : {}),
    conv_start: timestampParam(b.convStart),
    conv_end: timestampParam(b.convEnd),
    ...(excludesTransactions(plan) ? { excluded_list: excludedListId(s.excluded_transaction_ids) } : {}),
    platform_revenue: s.platform_revenue === 'platform' ? 1 : 0,
    net_merchandise: s.net_merchandise_revenue ? 1 : 0,
    refund_netting: s.refund_netting ? 1 : 0,
    fee_percent: s.payment_fee_percent,
    fee_fixed: s.payment_fee_fixed,
  };
}

/** The fee an order records, else the workspace's percentage plus fixed fee on its gross revenue. */
const paymentFeeSql = (recorded: string, gross: string) =>
  `ifNull(${recorded}, if(${gross} > 0, ${gross} * {fee_percent:Float64} / 100 + {fee_fixed:Int64}, 0))`;


/**
 * A conversion's revenue and profit parts after the workspace settings, its city and coupon code
 * (`columns`), and the joins to platform orders they read (`joins`). Platform orders matter only
 * for profit metrics, the settings that read them and the breakdowns an order can fill in (a
 * purchase the pixel saw without a city or coupon takes its order's); otherwise the parts come
 * from the conversion alone.
 */
export function conversionValues(plan: ReportPlan): { columns: string; joins: string } {
  const s = plan.settings;
  const needsOrders =
    plan.metrics.some((m) => METRICS[m].profit) || (plan.breakdown !== null && ORDER_KEYED_BREAKDOWNS.includes(plan.breakdown)) ||
    s.platform_revenue === 'platform' || s.net_merchandise_revenue || s.refund_netting || s.new_customer_correction;
  if (!needsOrders) {
    return {
      columns: `toFloat64(c.transaction_gross_revenue) AS revenue, toFloat64(c.is_new_customer) AS is_new,
    ${ZERO} AS cogs, ${ZERO} AS fees, ${ZERO} AS shipping_costs, ${ZERO} AS refunds,
    c.transaction_city AS city, c.coupon_code AS coupon_code`,
      joins: '',
    };
  }
  const matched = `o.o_tx != ''`;
  const revenue = `(if({platform_revenue:UInt8} AND ${matched}, o.o_gross, c.transaction_gross_revenue)
      - if({net_merchandise:UInt8} AND ${matched}, o.o_tax + o.o_shipping, 0)
      - if({refund_netting:UInt8} AND ${matched}, o.o_refunds, 0))`;
  const gross = `if(${matched}, o.o_gross, c.transaction_gross_revenue)`;
  // new_customer_correction: the platform order decides; without one, the customer's first order does.
  const isNew = s.new_customer_correction
    ? `if(${matched}, o.o_new, if(c.customer_id != '', c.dt <= f.first_dt, c.is_new_customer))`
    : 'c.is_new_customer';
  const firstOrder = s.new_customer_correction
    ? `LEFT JOIN (
    SELECT customer_id AS f_customer, min(dt) AS first_dt FROM (
      SELECT customer_id, dt FROM orders FINAL WHERE store_id = {store_id:UInt64} AND customer_id != '' AND ${SALE_ORDER}
      UNION ALL SELECT customer_id, dt FROM conversions WHERE store_id = {store_id:UInt64} AND customer_id != ''
    ) GROUP BY customer_id
  ) AS f ON f.f_customer = c.customer_id`
    : '';
  return {
    columns: `toFloat64(${revenue}) AS revenue,
    toFloat64(${isNew}) AS is_new,
    toFloat64(if(${matched}, o.o_cogs, 0)) AS cogs,
    toFloat64(${paymentFeeSql('o.o_fee', gross)}) AS fees,
    toFloat64(if(${matched}, o.o_shipping_cost, 0)) AS shipping_costs,
    toFloat64(if(${matched}, o.o_refunds, 0)) AS refunds,
    if(c.transaction_city != '', c.transaction_city, o.o_city) AS city,
    if(c.coupon_code != '', c.coupon_code, o.o_coupon) AS coupon_code`,
    joins: `LEFT JOIN (
    SELECT o_tx, gross_revenue AS o_gross, tax AS o_tax, shipping AS o_shipping,
      arraySum(r -> r.amount, refunds) AS o_refunds, cogs AS o_cogs, shipping_cost AS o_shipping_cost,
      payment_fee AS o_fee, is_new_customer AS o_new, city AS o_city, coupon_code AS o_coupon
    FROM orders FINAL
    ARRAY JOIN ${ORDER_IDS} AS o_tx
    WHERE store_id = {store_id:UInt64}
  ) AS o ON o.o_tx = c.transaction_id
  ${firstOrder}`,
  };
}

/** A session as a touch (`touch`), and the organic touch of a conversion without an eligible one (`fallback`). */
function touchExpressions(fields: readonly TouchField[]): { touch: string; fallback: string } {
  const touch = touchSql({
    ts: 'started',
    session_id: 'session_id',
    channel: 'channel',
    source: reportingSourceSql('channel'),
    campaign: 'campaign',
    adgroup: 'adgroup',
    ad: 'ad',
    utm_source: 'utm_source',
    utm_campaign: 'utm_campaign',
    utm_medium: 'utm_medium',
    utm_term: 'utm_term',
    utm_content: 'utm_content',
    referrer: 'referrer',
    landing_page: 'landing_page',
  }, fields);
  // The fallback takes its page data from the conversion's own session.
  const fallback = touchSql({
    ts: 'conv_dt',
    session_id: 'session_id',
    channel: "''",
    source: "'organic'",
    utm_source: 'own.utm_source',
    utm_campaign: 'own.utm_campaign',
    utm_medium: 'own.utm_medium',
    utm_term: 'own.utm_term',
    utm_content: 'own.utm_content',
    referrer: 'own.referrer',
    landing_page: 'own.landing_page',
  }, fields);
  return { touch, fallback };
}

/**
 * The array of (touch, weight[, share]) a conversion credits. Credits are kept inside the array,
 * before ARRAY JOIN: the same conditions in a WHERE on the joined columns cost ClickHouse ~20 ms
 * more analysis. Conversions are read for the range itself in conversion-date mode, so only click
 * dates need the range check.
 */
function creditedSql(plan: ReportPlan, credits: string, model: ModelName = plan.attribution.model): string {
  const keptCredit = [
    'c.2 > 0',
    ...(plan.attribution.dateMode === 'click' ? [`c.1.ts BETWEEN {start:${TS}} AND {end:${TS}}`] : []),
    ...(plan.channels ? ['c.1.channel IN {channels:Array(String)}'] : []),
    ...drillsOf(plan).map((d) => `c.1.${d.touch} = {${d.name}:String}`),
  ].join(' AND ');
  return bookedCredits(model, `arrayFilter(c -> ${keptCredit}, ${credits})`);
}

/**
 * Several models side by side: every model's credits of a conversion in one array of
 * (touch, weight, share, model number), the number 1-based in `models` order, over the column
 * `touches` (creditedTouchesSql). The share is the weight under a model without overlapping credits.
 */
function modelsCreditedSql(plan: ReportPlan, models: readonly ModelName[], fallback: string, bound: QueryParams): string {
  const each = models.map((model, i) => {
    const credited = creditedSql(plan, modelCreditsSql(model, { touches: 'touches', convTs: 'conv_dt', fallback, bound }), model);
    return `arrayMap(c -> (c.1, c.2, ${hasShares(model) ? 'c.3' : 'c.2'}, ${i + 1}), ${credited})`;
  });
  return `arrayConcat(${each.join(', ')})`;
}

/**
 * How the credits of a statement are shaped: with a share beside each weight (an overlapping
 * model, or several models), and with the model number (several models; null: one).
 */
interface CreditShape {
  shares: boolean;
  models: number | null;
}

const creditShape = (plan: ReportPlan, models: readonly ModelName[] | undefined): CreditShape =>
  ({ shares: models !== undefined || hasShares(plan.attribution.model), models: models?.length ?? null });

/** The model numbers 1..n, one row each: ads and sessions count under every model. */
const everyModel = (n: number) => `arrayJoin(range(1, ${n + 1}))`;

const PIXEL_TRANSACTIONS = `SELECT transaction_id FROM conversions WHERE store_id = {store_id:UInt64} AND transaction_id != ''`;

/**
 * Platform orders that are sales with no pixel conversion (by id or by name), as credits of their
 * own `unattributed` touch (`fields` null: credits without a touch, wholeConversions).
 */
function unattributedCreditsSql(plan: ReportPlan, fields: readonly TouchField[] | null, lines: boolean, segment: string | null, shape: CreditShape): string {
  const touch = fields ? `${touchSql({ ts: 'dt', channel: "'unattributed'", source: "'unattributed'" }, fields)} AS touch,
    ` : '';
  return `
  UNION ALL
  SELECT ${touch}1. AS weight,${shape.shares ? ' 1. AS share,' : ''}${shape.models ? ` ${everyModel(shape.models)} AS model,` : ''} dt AS credit_ts,
    toFloat64(gross_revenue - if({net_merchandise:UInt8}, tax + shipping, 0)
      - if({refund_netting:UInt8}, arraySum(r -> r.amount, refunds), 0)) AS revenue,
    toFloat64(is_new_customer) AS is_new, toFloat64(cogs) AS cogs,
    toFloat64(${paymentFeeSql('payment_fee', 'gross_revenue')}) AS fees,
    toFloat64(shipping_cost) AS shipping_costs, toFloat64(arraySum(r -> r.amount, refunds)) AS refunds,
    city, coupon_code${lines ? ', line_items AS lines' : ''}
  FROM orders FINAL
  WHERE store_id = {store_id:UInt64} AND dt BETWEEN {start:${TS}} AND {end:${TS}} AND ${SALE_ORDER}${excludesTransactions(plan)
    ? `\n    AND transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL} AND order_name NOT IN ${EXCLUDED_TRANSACTIONS_SQL}` : ''}
    AND transaction_id NOT IN (${PIXEL_TRANSACTIONS}) AND order_name NOT IN (${PIXEL_TRANSACTIONS})${segment
    ? `\n    AND customer_id IN (${segment})` : ''}`;
}

/**
 * The line items of a conversion: its platform order's (by id or name), which the shop platform
 * keeps complete, else those the pixel's purchase event carried.
 */
const LINES_JOIN = `LEFT JOIN (
    SELECT l_tx, line_items AS l_items FROM orders FINAL
    ARRAY JOIN ${ORDER_IDS} AS l_tx
    WHERE store_id = {store_id:UInt64}
  ) AS l ON l.l_tx = c.transaction_id`;
const LINES_SQL = 'if(notEmpty(l.l_items), l.l_items, c.line_items)';

/**
 * How a report statement is built: with `models`, those models side by side; `bound`, the values
 * the models bound (run.ts binds before building; none for models that bind nothing), so that their
 * weights leave out what the values make idle (AttributionModel.weights).
 */
export interface ReportSqlOptions {
  models?: readonly ModelName[];
  bound?: QueryParams;
}

/**
 * Whether the report's credits can be its conversions themselves: each conversion books exactly
 * one credit of weight 1 on its own date (a model that gives one touch 100 %, conversion dates) and
 * the statement reads nothing of the touch credited (no key from it, no channel restriction, no
 * drill-down, one model). Then the statement builds no buyer paths, which are most of its planning
 * and work, and sums the same values (1. * x is x): the default report (docs/performance.md,
 * "Pass 5").
 */
function wholeConversions(plan: ReportPlan, options: ReportSqlOptions): boolean {
  const keys = plan.breakdown ? DIMENSIONS[plan.breakdown].keys : [];
  return options.models === undefined && MODELS[plan.attribution.model].single === true && plan.attribution.dateMode === 'conversion'
    && plan.channels === null && drillsOf(plan).length === 0 && keys.every((k) => !k.credit.startsWith('touch.'));
}

/**
 * The report's common table expressions, up to `credits`: one row per (conversion, credited
 * touch). With `lines`, each credit also carries its conversion's line items (`lines`), for the
 * product sales query. With `whole` (wholeConversions), one row per conversion without a touch.
 */
export function reportCtes(plan: ReportPlan, options: ReportSqlOptions & { lines?: boolean; whole?: boolean } = {}): { sql: string; params: QueryParams } {
  const lines = options.lines === true;
  const whole = options.whole === true;
  const shape = creditShape(plan, options.models);
  const fields = touchFields(plan);
  const params = reportParams(plan, !whole);
  const convWhere = new Conditions()
    .add('c.store_id = {store_id:UInt64}')
    .add(`c.dt BETWEEN {conv_start:${TS}} AND {conv_end:${TS}}`)
    .add(soldSql('c.transaction_id'));
  if (excludesTransactions(plan)) convWhere.add(`c.transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}`);
  addCountedNames(convWhere, 'c.name', plan.conversionNames);
  // A conversion is a segment customer's by its own customer id, else by its visitor's.
  const segment = plan.segment && segmentCustomersSql({ rules: plan.segment.rules, nowMs: plan.segment.nowMs, visibleChannels: plan.segment.channels });
  if (segment) convWhere.add(`if(c.customer_id != '', c.customer_id, ids.customer) IN (${segment.sql})`, segment.params);
  Object.assign(params, convWhere.params);
  if (plan.channels) params.channels = plan.channels;
  for (const drill of drillsOf(plan)) params[drill.name] = plan[drill.name]!;

  const values = conversionValues(plan);
  const unattributed = plan.includeUnattributed ? unattributedCreditsSql(plan, whole ? null : fields, lines, segment?.sql ?? null, shape) : '';
  // Without paths, sessions are read for the range alone and buyers are looked up only for a segment.
  const ids = !whole || segment !== null;
  const scan = whole ? ['start', 'end'] : ['scan_start', 'scan_end'];

  const ctes = `
WITH
session_rows AS (
  SELECT ${whole ? '' : 'session_id, '}started,
    ${sessionColumns(fields, plan, !whole).join(', ')},
    add_to_carts, initiated_checkouts AS checkouts
  FROM ${SESSIONS_FINAL}
  WHERE ${sessionsStartedSql(`{${scan[0]}:${TS}}`, `{${scan[1]}:${TS}}`)}
),${ids ? `\n${IDS_CTE},` : ''}
conv AS (
  SELECT c.dt AS conv_dt,${whole ? '' : ` c.session_id AS session_id,
    ${conversionIdentitySql('c')} AS identity,`}
    ${values.columns}${lines ? `,
    ${LINES_SQL} AS lines` : ''}
  FROM conversions AS c${ids ? '\n  LEFT JOIN ids ON ids.id_visitor = c.visitor_id' : ''}
  ${values.joins}${lines ? `\n  ${LINES_JOIN}` : ''}
  WHERE ${convWhere.sql()}
),`;
  const creditColumns = `revenue, is_new, cogs, fees, shipping_costs, refunds, city, coupon_code${lines ? ', lines' : ''}`;
  if (whole) {
    return { sql: `${ctes}
credits AS (
  SELECT 1. AS weight, conv_dt AS credit_ts, ${creditColumns}
  FROM conv${unattributed}
)`, params };
  }

  const { touch, fallback } = touchExpressions(fields);
  const bound = options.bound ?? {};
  const attribution = attributionColumns(plan.attribution.model, { path: 'p.path', convTs: 'conv_dt', fallback, bound });
  const creditTs = plan.attribution.dateMode === 'click' ? 'touch.ts' : 'conv_dt';
  const needsOwn = fields.some((f) => OWN_SESSION_FIELDS.includes(f));
  const credited = options.models ? modelsCreditedSql(plan, options.models, fallback, bound) : creditedSql(plan, attribution.credits);
  const sql = `${ctes}
paths AS (
  SELECT ${sessionIdentitySql('s.visitor_id')} AS identity, groupArray(${touch}) AS path
  FROM session_rows AS s
  LEFT JOIN ids ON ids.id_visitor = s.visitor_id${needsOwn ? '' : `
  WHERE s.channel != ''`}
  GROUP BY identity
),
credits AS (
  SELECT credit.1 AS touch, credit.2 AS weight,${shape.shares ? ' credit.3 AS share,' : ''}${shape.models ? ' credit.4 AS model,' : ''} ${creditTs} AS credit_ts,
    ${creditColumns}
  FROM (
    SELECT c.conv_dt AS conv_dt, c.session_id AS session_id,
      c.revenue AS revenue, c.is_new AS is_new, c.cogs AS cogs, c.fees AS fees,
      c.shipping_costs AS shipping_costs, c.refunds AS refunds, c.city AS city, c.coupon_code AS coupon_code,${lines ? ' c.lines AS lines,' : ''}
      ${attribution.eligible} AS eligible${needsOwn ? ', arrayFirst(t -> t.session_id = c.session_id, p.path) AS own' : ''}${options.models
        ? `, ${creditedTouchesSql(fallback)} AS touches` : ''}
    FROM paths AS p
    RIGHT JOIN conv AS c ON p.identity = c.identity
  )
  ARRAY JOIN ${credited} AS credit${unattributed}
)`;
  return { sql, params };
}

/**
 * One part source. Ads and sessions are summed per key inside their branch (the ads' label is the
 * newest name), so a 90-day report hands the outer GROUP BY a row per key and day, not an array
 * per session (docs/performance.md, "Pass 4"); credits hand one row each, which costs ClickHouse
 * less analysis than a second aggregation per branch (with eight models too: summing the credits
 * per key in their branch saved as much work as it added analysis, measured).
 */
interface Branch {
  keys: string[];
  /**
   * Whether the first key is the model numbers that ads and sessions count under (everyModel):
   * computed after the branch's grouping, so each key's sums are spread over the models, not each
   * session before summing (an 8-model statement grouped 8 times the scan range's sessions).
   */
  spread: boolean;
  bucket: string | null;
  /** Its label, in a statement whose breakdown has one; null: ''. */
  label: string | null;
  parts: Partial<Record<ArrayPart, string>>;
  from: string;
  grouped: boolean;
}

/** Parts summed per row (metrics.ts turns them into metrics), in their order in the parts arrays. */
export const REPORT_PARTS = ['spend', 'impressions', 'clicks', 'sessions', 'add_to_carts', 'checkouts', 'conversions', 'revenue',
  'new_customers', 'cogs', 'payment_fees', 'shipping_costs', 'refunds', 'incremental_conversions', 'incremental_revenue'] as const;
export type ReportPart = (typeof REPORT_PARTS)[number];

/** Conversion parts and the credit column each sums. */
const CREDIT_PARTS = {
  conversions: '1.',
  revenue: 'revenue',
  new_customers: 'is_new',
  cogs: 'cogs',
  payment_fees: 'fees',
  shipping_costs: 'shipping_costs',
  refunds: 'refunds',
} as const satisfies Partial<Record<ReportPart, string>>;
type CreditPart = keyof typeof CREDIT_PARTS;
type ArrayPart = ReportPart | `share_${CreditPart}`;

/**
 * Under an overlapping model (any_click) the credit parts come again after REPORT_PARTS, summed
 * with each conversion's weights capped at 1 (`share`): the totals count a conversion at most once
 * even when several platforms get a full credit. Under every other model the weights already sum
 * to at most 1.
 */
function arrayParts(shares: boolean): ArrayPart[] {
  return [...REPORT_PARTS, ...(shares ? Object.keys(CREDIT_PARTS).map((p) => `share_${p}` as ArrayPart) : [])];
}

/**
 * Where the row value and the total of each part sit in `t_parts` and `all_parts` (0-based), for
 * the plan's model, or for `model` among the several of a statement built with `models`.
 */
export function partPositions(plan: ReportPlan, model?: ModelName): { row: Record<ReportPart, number>; total: Record<ReportPart, number> } {
  const order = arrayParts(model !== undefined || hasShares(plan.attribution.model));
  const overlapping = hasShares(model ?? plan.attribution.model);
  const positions = (pick: (p: ReportPart) => ArrayPart) =>
    Object.fromEntries(REPORT_PARTS.map((p) => [p, order.indexOf(pick(p))])) as Record<ReportPart, number>;
  const share = (p: ReportPart) => `share_${p}` as ArrayPart;
  return { row: positions((p) => p), total: positions((p) => (overlapping && order.includes(share(p)) ? share(p) : p)) };
}

/**
 * One part source as a SELECT of keys, `label` (when the breakdown has labels) and `p`, an array
 * of its parts (zeros before them).
 */
function branchSql(branch: Branch, keyNames: string[], order: ArrayPart[], labelled: boolean): string {
  const last = Math.max(...order.map((p, i) => (branch.parts[p] ? i : -1)));
  const parts = order.slice(0, last + 1).map((p) => branch.parts[p] ?? ZERO);
  const cols = [
    ...branch.keys.map((k, i) => `${k} AS k_${keyNames[i]}`),
    ...(branch.bucket ? [`${branch.bucket} AS bucket`] : []),
    ...(labelled ? [`${branch.label ?? "''"} AS label`] : []),
    `[${parts.join(', ')}] AS p`,
  ];
  const group = [...keyNames.slice(branch.spread ? 1 : 0).map((k) => `k_${k}`), ...(branch.bucket ? ['bucket'] : [])];
  return `SELECT ${cols.join(', ')}
  ${branch.from}${branch.grouped && group.length ? `\n  GROUP BY ${group.join(', ')}` : ''}`;
}

/**
 * The parts the plan's metrics and sort read (their formulas in metrics.ts), and revenue, the
 * default order. Only these are summed; the others stay zero at their places in the parts arrays,
 * so a report of the default metrics reads no impressions, carts or costs it would not show
 * (docs/performance.md, "Only the parts a report shows").
 */
function partsRead(plan: ReportPlan): Set<ReportPart> {
  const read = new Set<ReportPart>(['revenue']);
  for (const metric of [...plan.metrics, ...(plan.sort ? [plan.sort.metric] : [])]) {
    for (const part of metricParts(metric)) if (part !== 'expenses') read.add(part);
  }
  return read;
}

/** A branch's parts that `read` holds (a share with its part), and always its first, so that the branch still yields its rows. */
function onlyRead(parts: Partial<Record<ArrayPart, string>>, read: Set<ReportPart>): Partial<Record<ArrayPart, string>> {
  return Object.fromEntries(
    Object.entries(parts).filter(([part], i) => i === 0 || read.has(part.replace(/^share_/, '') as ReportPart)),
  );
}

/**
 * The three part sources (ads, sessions, credits) for the plan's breakdown and interval. With
 * `models` models the model number is the first key: credits carry theirs, ads and sessions
 * count under every model (summed per key in their branch, then spread over the models).
 */
function branches(plan: ReportPlan, dimension: Dimension | null, models: number | null): Branch[] {
  const bucket = (date: string) => (plan.interval ? INTERVALS[plan.interval](date) : null);
  const read = partsRead(plan);
  const keys = dimension?.keys ?? [];
  const spread = models ? [everyModel(models)] : [];
  const out: Branch[] = [];
  const adsKeys = keys.map((k) => k.ads);
  if (adsKeys.every((k) => k !== null)) {
    const where = new Conditions()
      .add('store_id = {store_id:UInt64}')
      .add('dt BETWEEN {day_start:Date} AND {day_end:Date}')
      .addIf(plan.channels, 'source IN {channels:Array(String)}', (v) => ({ channels: v }));
    for (const drill of drillsOf(plan)) where.add(`${drill.ads} = {${drill.name}:String}`);
    out.push({
      keys: [...spread, ...(adsKeys as string[])],
      spread: models !== null,
      bucket: bucket('dt'),
      label: dimension?.label ? `argMax(${dimension.label.ads}, dt)` : null,
      parts: onlyRead({ spend: 'toFloat64(sum(spend))', impressions: 'toFloat64(sum(impressions))', clicks: 'toFloat64(sum(clicks))' }, read),
      from: `FROM ads FINAL WHERE ${where.sql()}`,
      grouped: true,
    });
  }
  const sessionKeys = keys.map((k) => k.session);
  if (sessionKeys.every((k) => k !== null)) {
    const where = new Conditions()
      .add(`started BETWEEN {start:${TS}} AND {end:${TS}}`)
      .addIf(plan.channels, 'channel IN {channels:Array(String)}', (v) => ({ channels: v }));
    for (const drill of drillsOf(plan)) where.add(`${drill.session} = {${drill.name}:String}`);
    out.push({
      keys: [...spread, ...(sessionKeys as string[])],
      spread: models !== null,
      bucket: bucket(LOCAL_DATE('started')),
      label: null,
      parts: onlyRead({ sessions: 'toFloat64(count())', add_to_carts: 'toFloat64(sum(add_to_carts))', checkouts: 'toFloat64(sum(checkouts))' }, read),
      from: `FROM session_rows WHERE ${where.sql()}`,
      grouped: true,
    });
  }
  const credit: Partial<Record<ArrayPart, string>> = {};
  for (const [part, column] of Object.entries(CREDIT_PARTS) as [CreditPart, string][]) {
    credit[part] = `weight * ${column}`;
    credit[`share_${part}`] = `share * ${column}`;
  }
  if (models === null && MODELS[plan.attribution.model].remainder && (read.has('incremental_conversions') || read.has('incremental_revenue'))) {
    // What a tracked channel caused: every credit but organic's (the baseline) and unattributed orders'.
    const caused = `(touch.source NOT IN ('organic', 'unattributed'))`;
    credit.incremental_conversions = `weight * ${caused}`;
    credit.incremental_revenue = `weight * revenue * ${caused}`;
  }
  out.push({ keys: [...(models ? ['model'] : []), ...keys.map((k) => k.credit)], spread: false, bucket: bucket(LOCAL_DATE('credit_ts')), label: null, parts: onlyRead(credit, read), from: 'FROM credits', grouped: false });
  return out;
}

/** The workspace's custom expenses on the report range's calendar days, as a scalar subquery. */
const EXPENSES_SQL = `(SELECT toFloat64(sum(amount)) FROM expenses WHERE store_id = {store_id:UInt64}
      AND dt BETWEEN {day_start:Date} AND {day_end:Date})`;

export interface ReportSql {
  sql: string;
  params: QueryParams;
  /** The engine settings to run it with (Clickhouse.query's `settings`). */
  settings: typeof REPORT_SETTINGS;
}

/**
 * optimize_move_to_prewhere off: the engine would move the conditions on `conversions` (store,
 * dates, names and the sets of orders that are no sale and of excluded ids) to a PREWHERE, and it
 * builds a PREWHERE's sets one after the other while it plans, before anything runs. In the WHERE
 * they are built as the statement runs; the rows read are the same (the dates and the store bound
 * the read through the sorting key), and planning takes 3.5 ms less in every report (docs/performance.md,
 * "Pass 5": up to 4 ms of wall time, and at most a tenth more bytes when the counted names match no conversion).
 */
const REPORT_SETTINGS = { optimize_move_to_prewhere: 0 } as const;

/** A part of a row as SQL over `t_parts` (custom expenses are a total only: 0 on rows). */
const rowPartSql = (part: keyof Parts): string => (part === 'expenses' ? ZERO : `t_parts[${REPORT_PARTS.indexOf(part) + 1}]`);

/**
 * The rows' order: by the requested metric (nulls last either way), else revenue descending;
 * chronologically first when interval is set and no metric is named; the keys break ties.
 */
function rowOrder(plan: ReportPlan, keyCols: string[], bucketCol: string): string[] {
  const bucket = plan.interval ? [bucketCol] : [];
  if (!plan.sort) return [...bucket, `${rowPartSql('revenue')} DESC`, ...keyCols];
  const ctx = { refundsNetted: plan.settings.refund_netting };
  return [`${metricSql(plan.sort.metric, rowPartSql, ctx)} ${plan.sort.order.toUpperCase()} NULLS LAST`, ...bucket, ...keyCols];
}

/**
 * One query: the page of rows (`t_parts`) with the totals over all rows (`all_parts`, a window
 * sum computed before LIMIT; a report without breakdown and interval is one row, its own totals)
 * and the row count on every row. Outer aliases differ from inner column names: with
 * prefer_column_name_to_alias an alias equal to an input column would not be seen. With row keys,
 * the rows are picked one level up, after the window sums, so the totals still cover the whole
 * scope.
 */
export function buildReportSql(plan: ReportPlan, options: ReportSqlOptions = {}): ReportSql {
  const base = reportCtes(plan, { ...options, whole: wholeConversions(plan, options) });
  const shape = creditShape(plan, options.models);
  const dimension: Dimension | null = plan.breakdown ? DIMENSIONS[plan.breakdown] : null;
  const keyNames = (dimension?.keys ?? []).map((k) => k.name);
  const keyCols = keyNames.map((k) => `k_${k}`);
  // With several models, each model's rows are a report of their own: its own totals, count and page.
  const model = shape.models ? 'k_model' : null;
  const perModel = model ? `PARTITION BY ${model}` : '';
  const group = [...(model ? [model] : []), ...(plan.interval ? ['bucket'] : []), ...keyCols];
  // Without keys the report is one row, which is its own total: no window sums, no order.
  const single = group.length === 0;
  const labelled = dimension?.label !== undefined;
  const expenses = plan.includeExpenses ? EXPENSES_SQL : ZERO;
  const parts = arrayParts(shape.shares);
  const union = branches(plan, dimension, shape.models)
    .map((b) => branchSql(b, [...(model ? ['model'] : []), ...keyNames], parts, labelled)).join('\n  UNION ALL\n  ');
  const columns = [
    ...(model ? [model] : []),
    ...keyCols,
    ...(plan.interval ? ['toString(bucket) AS date'] : []),
    ...(labelled ? ['max(label) AS label'] : []),
    'sumForEach(p) AS t_parts',
    single ? 't_parts AS all_parts' : `sumForEach(sumForEach(p)) OVER (${perModel}) AS all_parts`,
    single ? 'toUInt64(1) AS total_rows' : `count() OVER (${perModel}) AS total_rows`,
    `${expenses} AS all_expenses`,
  ];
  const rows = `SELECT ${columns.join(',\n  ')}
FROM (
  ${union}
)
${group.length ? `GROUP BY ${group.join(', ')}` : ''}`;
  const order = (bucketCol: string) => (single ? '' : `ORDER BY ${[...(model ? [model] : []), ...rowOrder(plan, keyCols, bucketCol)].join(', ')}\n`);
  const page = (bucketCol: string) => `${order(bucketCol)}LIMIT {limit:UInt32} OFFSET {offset:UInt64}${model ? ` BY ${model}` : ''}`;
  const params = { ...base.params, limit: plan.limit, offset: plan.offset };
  const picks = pickedRows(plan, keyCols);
  if (picks && model) throw new Error('a report of several models picks no rows');
  if (!picks) return { sql: `${base.sql}\n${rows}\n${page('bucket')}`, params, settings: REPORT_SETTINGS };
  const sql = `${base.sql}
SELECT * REPLACE (count() OVER () AS total_rows) FROM (
${rows}
)
WHERE ${picks.where}
${page('date')}`;
  return { sql, params: { ...params, ...picks.params }, settings: REPORT_SETTINGS };
}

/**
 * Which rows the plan picks after the window sums, or null for every row: those with row keys
 * (one array parameter per key column, since parameters take no nested arrays, zipped here) and,
 * with keyed rows, those whose breakdown keys are all set. The totals stay the whole scope's; the
 * count of rows is that of the picked ones.
 */
function pickedRows(plan: ReportPlan, keyCols: string[]): { where: string; params: QueryParams } | null {
  const where = plan.keyedRows ? keyCols.map((k) => `${k} != ''`) : [];
  const params: QueryParams = {};
  if (plan.rowKeys) {
    const picked = [...(plan.interval ? ['date'] : []), ...keyCols];
    where.push(`has(arrayZip(${picked.map((_, i) => `{row_key_${i}:Array(String)}`).join(', ')}), tuple(${picked.join(', ')}))`);
    picked.forEach((_, i) => (params[`row_key_${i}`] = plan.rowKeys!.map((keys) => keys[i]!)));
  }
  return where.length ? { where: where.join(' AND '), params } : null;
}

/** Custom expenses in the range, for a report with no row at all. */
export function expensesSql(): string {
  return `SELECT ${EXPENSES_SQL} AS all_expenses`;
}
