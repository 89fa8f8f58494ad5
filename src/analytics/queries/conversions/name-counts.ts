import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { QueryScope } from '../../query-scope.ts';
import { saleConversions } from './conversion-scope.ts';

export const QUERY_NAME = 'conversion-name-counts';

/** More distinct names than a store uses; the list stays one short answer. */
export const MAX_NAMES = 200;

export interface NameCountRow {
  name: string;
  conversions: number;
  /** The pixel's amounts, in cents. */
  revenue: number;
}

/**
 * Each conversion name in scope with how many conversions carry it and their revenue, most
 * frequent first: the conversions every number counts (cancelled and test orders left out), on
 * the channels of the scope.
 */
export async function conversionNameCounts(ch: Clickhouse, scope: QueryScope): Promise<NameCountRow[]> {
  const conversions = saleConversions(scope);
  const sql = `
SELECT name, toUInt32(count()) AS conversions, toInt64(sum(transaction_gross_revenue)) AS revenue
FROM ${conversions.sql}
GROUP BY name
ORDER BY conversions DESC, name
LIMIT {limit:UInt32}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<NameCountRow>(QUERY_NAME, sql, { ...conversions.params, limit: MAX_NAMES });
}
