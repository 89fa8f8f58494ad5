import type { Clickhouse } from '../../../store/clickhouse.ts';
import { sessionsInRange } from '../tool-common/sessions-in-range.ts';
import type { QueryScope } from '../../query-scope.ts';
import { soldSql } from '../../sales.ts';
import { Conditions } from '../../sql.ts';
import { addCountedNames } from '../../conversion-names.ts';

export const QUERY_NAME = 'variant-performance';

export interface VariantRow {
  test_id: string;
  variant: string;
  sessions: number;
  conversions: number;
  converted_sessions: number;
  revenue_cents: number;
  first_seen: string;
  last_seen: string;
}

/**
 * Sessions that landed with the `ab_test` and `ab_variant` entry parameters (set by the storefront
 * test or the pixel from the URL), with the conversions made in those sessions, per test and variant:
 * those of the counted `names` (conversion-names.ts), every name when left out.
 */
export async function variantPerformance(
  ch: Clickhouse,
  scope: QueryScope,
  p: { testId?: string; names?: readonly string[] } = {},
): Promise<VariantRow[]> {
  const sessions = sessionsInRange(scope, ['entry_meta_keys', 'entry_meta_values']);
  const converted = new Conditions()
    .add(`store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {read_end:DateTime64(3, 'UTC')}`)
    .add(soldSql('transaction_id'));
  addCountedNames(converted, 'name', p.names ?? ['*']);
  const sql = `
SELECT test_id, variant, toUInt64(count()) AS sessions, toUInt64(sum(n_conv)) AS conversions,
  toUInt64(countIf(n_conv > 0)) AS converted_sessions, toInt64(sum(rev)) AS revenue_cents,
  toString(toDateTime(min(s_start), 'UTC')) AS first_seen, toString(toDateTime(max(s_start), 'UTC')) AS last_seen
FROM (
  SELECT s.session_id AS session_id, s.s_start AS s_start,
    s.s_entry_meta_values[indexOf(s.s_entry_meta_keys, 'ab_test')] AS test_id,
    s.s_entry_meta_values[indexOf(s.s_entry_meta_keys, 'ab_variant')] AS variant,
    c.n_conv AS n_conv, c.rev AS rev
  FROM ${sessions.sql} AS s
  LEFT JOIN (
    SELECT session_id, count() AS n_conv, sum(transaction_gross_revenue) AS rev
    FROM conversions
    WHERE ${converted.sql()}
    GROUP BY session_id
  ) AS c ON s.session_id = c.session_id
  WHERE has(s.s_entry_meta_keys, 'ab_test') AND has(s.s_entry_meta_keys, 'ab_variant')
)
WHERE test_id != '' AND variant != '' AND ({any_test:Bool} OR test_id = {test_id:String})
GROUP BY test_id, variant
ORDER BY test_id, variant
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<VariantRow>(QUERY_NAME, sql, {
    ...sessions.params,
    ...converted.params,
    any_test: p.testId === undefined,
    test_id: p.testId ?? '',
  });
}
