import type { Clickhouse } from '../../../store/clickhouse.ts';
import { sessionsInRange } from '../tool-common/sessions-in-range.ts';
import type { QueryScope } from '../../query-scope.ts';
import { soldSql } from '../../sales.ts';
import { Conditions } from '../../sql.ts';
import { addCountedNames } from '../../conversion-names.ts';

export const QUERY_NAME = 'cart-abandonment';

export interface AbandonmentRow {
  channel: string;
  cart_sessions: number;
  converted_cart_sessions: number;
}

/**
 * Per landing channel: sessions with an add_to_cart, and how many of them converted (a sale,
 * src/analytics/sales.ts, of the counted `names`, conversion-names.ts).
 */
export async function cartAbandonment(ch: Clickhouse, scope: QueryScope, names: readonly string[]): Promise<AbandonmentRow[]> {
  const sessions = sessionsInRange(scope, []);
  const converted = new Conditions()
    .add(`store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {read_end:DateTime64(3, 'UTC')}`)
    .add(soldSql('transaction_id'));
  addCountedNames(converted, 'name', names);
  const sql = `
SELECT if(s_adv_source IN ('', 'organic'), 'organic', s_adv_source) AS channel, toUInt64(count()) AS cart_sessions,
  toUInt64(countIf(session_id IN (
    SELECT session_id FROM conversions WHERE ${converted.sql()}
  ))) AS converted_cart_sessions
FROM ${sessions.sql}
WHERE s_add_to_carts > 0
GROUP BY channel
ORDER BY cart_sessions DESC, channel
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<AbandonmentRow>(QUERY_NAME, sql, { ...sessions.params, ...converted.params });
}
