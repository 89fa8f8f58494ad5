import type { Clickhouse } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { Conditions, timestampParam } from '../../sql.ts';
import type { QueryScope } from '../../query-scope.ts';
import { soldSql } from '../../sales.ts';
import { reportingSourceSql } from '../../dimensions.ts';
import { addCountedNames } from '../../conversion-names.ts';

export const QUERY_NAME = 'touchpoint-paths';

export interface PathRow {
  /** Reporting sources (meta, microsoft, creator, ...), repeats in a row collapsed. */
  path: string[];
  /** The raw channel paths behind it (facebook, instagram, bing, ...; repeats collapsed), at most 5. */
  raw_paths: string[][];
  /** Channels in the path; 0 for the organic path of a conversion without touchpoints. */
  touchpoints: number;
  conversions: number;
  revenue_cents: number;
  avg_touchpoints: number;
}

/**
 * Each conversion's path: the reporting sources of the visitor's tagged sessions that started
 * within `windowDays` before it, in time order, repeats in a row collapsed, with the raw channel
 * paths behind it. Untagged sessions are not touchpoints; a conversion without any gets the path
 * ['organic']. A restricted key (the scope's
 * channels not null) gets only the conversions whose whole path it sees: every touchpoint in them,
 * or no touchpoint and `organicVisible`. Paths are never shortened to what a key sees, so a
 * restricted key's paths and counts are exactly the admin's for those paths. Only conversions of
 * the counted `names` (conversion-names.ts) have a path.
 */
export async function touchpointPaths(
  ch: Clickhouse,
  scope: QueryScope,
  p: { windowDays: number; organicVisible: boolean; limit: number; names: readonly string[] },
): Promise<PathRow[]> {
  const converted = new Conditions()
    .add(`store_id = {store_id:UInt64} AND dt BETWEEN {start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`)
    .add(soldSql('transaction_id'));
  addCountedNames(converted, 'name', p.names);
  const touch = new Conditions()
    .add(`store_id = {store_id:UInt64} AND dt BETWEEN {touch_start:DateTime64(3, 'UTC')} AND {end:DateTime64(3, 'UTC')}`, {
      touch_start: timestampParam(scope.range.startMs - p.windowDays * DAY_MS),
    });
  const sql = `
SELECT if(empty(sources), ['organic'], sources) AS path, any(length(sources)) AS touchpoints, toUInt64(count()) AS conversions,
  toInt64(sum(rev)) AS revenue_cents,
  round(avg(n_touches), 2) AS avg_touchpoints,
  arraySort(groupUniqArray(5)(if(empty(touches), ['organic'], touches))) AS raw_paths
FROM (
  SELECT arrayMap(x -> x.2, arraySort(x -> x.1, groupArrayIf((t.t_start, t.t_source),
      t.t_source != '' AND t.t_start <= c.dt AND t.t_start >= c.dt - toIntervalDay({window:UInt32})))) AS raw,
    arrayFilter((x, i) -> i = 1 OR x != raw[i - 1], raw, arrayEnumerate(raw)) AS touches,
    arrayMap(x -> ${reportingSourceSql('x')}, raw) AS raw_sources,
    arrayFilter((x, i) -> i = 1 OR x != raw_sources[i - 1], raw_sources, arrayEnumerate(raw_sources)) AS sources,
    length(raw) AS n_touches,
    any(c.transaction_gross_revenue) AS rev
  FROM (
    SELECT visitor_id, dt, transaction_id, session_id, name, transaction_gross_revenue
    FROM conversions
    WHERE ${converted.sql()}
  ) AS c
  LEFT JOIN (
    SELECT visitor_id, session_id, min(dt) AS t_start, argMin(adv_source, dt) AS t_source
    FROM events WHERE ${touch.sql()}
    GROUP BY visitor_id, session_id
    HAVING t_source NOT IN ('', 'organic')
  ) AS t ON c.visitor_id = t.visitor_id
  GROUP BY c.visitor_id, c.dt, c.transaction_id, c.session_id, c.name
)
WHERE NOT {restricted:Bool} OR if(empty(touches), {organic_visible:Bool}, arrayAll(x -> has({channels:Array(String)}, x), touches))
GROUP BY path
ORDER BY conversions DESC, revenue_cents DESC, path
LIMIT {limit:UInt32}
SETTINGS output_format_json_quote_64bit_integers = 0`;
  return ch.query<PathRow>(QUERY_NAME, sql, {
    ...touch.params,
    ...converted.params,
    restricted: scope.channels !== null,
    channels: scope.channels ?? [],
    store_id: scope.workspaceId,
    start: timestampParam(scope.range.startMs),
    end: timestampParam(scope.range.endMs),
    window: p.windowDays,
    organic_visible: p.organicVisible,
    limit: p.limit,
  });
}
