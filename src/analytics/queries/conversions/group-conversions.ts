import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Page } from '../../../kit/paging.ts';
import type { QueryScope } from '../../query-scope.ts';
import { LOCAL_DATE } from '../../sql.ts';
import { CHANNEL_OUT, attributedConversions, type ConversionFilters } from './conversion-scope.ts';

export const QUERY_NAME = 'group-conversions';

/** group_by dimension -> its expression over an attributed conversion. */
export const CONVERSION_DIMENSIONS = {
  utm_campaign: 'l_utm_campaign',
  utm_content: 'l_utm_content',
  utm_source: 'l_utm_source',
  utm_medium: 'l_utm_medium',
  utm_term: 'l_utm_term',
  adv_source: CHANNEL_OUT,
  adv_campaign_id: 'l_adv_campaign_id',
  adv_adgroup_id: 'l_adv_adgroup_id',
  adv_ad_id: 'l_adv_ad_id',
  name: 'toString(name)',
  date: `toString(${LOCAL_DATE('dt')})`,
  country_code: 'toString(transaction_country_code)',
} as const;

export type ConversionDimension = keyof typeof CONVERSION_DIMENSIONS;
export const CONVERSION_DIMENSION_NAMES = Object.keys(CONVERSION_DIMENSIONS) as ConversionDimension[];

export interface GroupConversionsParams extends ConversionFilters {
  dimensions: ConversionDimension[];
  page: Page;
}

/** One member per dimension plus the metrics, all metrics as JSON numbers. */
export type ConversionGroup = Record<string, string | number> & {
  conversions: number;
  revenue: number;
  new_customers: number;
  unique_customers: number;
};

const METRICS = ['conversions', 'revenue', 'new_customers', 'unique_customers'] as const;

/**
 * Aggregates conversions by the requested dimensions; ordered by revenue (descending, ties by the
 * dimensions), or chronologically first when `date` is one of them. Returns up to `limit + 1` rows.
 */
export async function groupConversions(ch: Clickhouse, scope: QueryScope, params: GroupConversionsParams): Promise<ConversionGroup[]> {
  const conversions = attributedConversions(scope, params);
  const dims = params.dimensions.map((d) => `${CONVERSION_DIMENSIONS[d]} AS g_${d}`);
  const keys = params.dimensions.map((d) => `g_${d}`);
  const order = [
    ...(params.dimensions.includes('date') ? ['g_date'] : []),
    'm_revenue DESC',
    ...keys.filter((k) => k !== 'g_date'),
  ];
  const sql = `
SELECT
  ${dims.map((d) => `${d},`).join('\n  ')}
  count() AS m_conversions,
  sum(transaction_gross_revenue) AS m_revenue,
  countIf(is_new_customer = 1) AS m_new_customers,
  uniqExactIf(customer_id, customer_id != '') AS m_unique_customers
FROM ${conversions.sql}
${keys.length ? `GROUP BY ${keys.join(', ')}` : ''}
ORDER BY ${order.join(', ')}
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
  const rows = await ch.query<Record<string, string>>(QUERY_NAME, sql, {
    ...conversions.params,
    tz: scope.range.timeZone,
    limit: params.page.limit + 1,
    offset: params.page.offset,
  });
  return rows.map((row) => {
    const group: Record<string, string | number> = {};
    for (const d of params.dimensions) group[d] = row[`g_${d}`];
    for (const m of METRICS) group[m] = Number(row[`m_${m}`]);
    return group as ConversionGroup;
  });
}
