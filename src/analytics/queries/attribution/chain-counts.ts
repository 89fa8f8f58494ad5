import type { Clickhouse } from '../../../store/clickhouse.ts';
import type { Range } from '../../../kit/calendar/range.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { timestampParam } from '../../sql.ts';
import { ORGANIC_CHANNELS } from '../../sources.ts';
import { reportingSourceSql } from '../../dimensions.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import { IDS_CTE, conversionIdentitySql, sessionIdentitySql } from '../../attribution/identity.ts';
import type { AttributionPlan } from '../../attribution/plan.ts';
import { emptyCounts, type ChainCounts } from '../../attribution/markov.ts';
import { EXCLUDED_TRANSACTIONS_SQL, excludedListId } from '../settings/excluded-transactions.ts';
import { soldSql } from '../../sales.ts';

export const QUERY_NAME = 'chain-counts';

/** What the chain is learned from: the request's scope (docs/attribution.md, "data_driven"). */
export interface ChainScope {
  workspaceId: number;
  range: Range;
  attribution: Pick<AttributionPlan, 'windowDays' | 'dateMode' | 'excludedChannels'>;
  /** Raw channels the key sees (null: every channel); the others are not in the chain at all. */
  visibleChannels: readonly string[] | null;
  /** The workspace's excluded_transaction_ids: those conversions are not in the chain. */
  excludedTransactions: readonly string[];
}

const TS = "DateTime64(3, 'UTC')";

/**
 * The transition counts of the scope's journeys, counted in the engine; only the counts (at most
 * (sources + 1)² rows) come back. A journey is the buyer's touchpoints as reporting sources, oldest
 * first (ties by session id), consecutive repeats collapsed (`arrayCompact`):
 *
 * - converting: one per conversion in the report's conversion range, of the buyer's touchpoints in
 *   its window, ending in conversion; a conversion without any is organic and left out;
 * - non-converting: one per buyer with touchpoints in the scan range and no conversion in it, of
 *   all those touchpoints, ending in null.
 *
 * The scan range is the report's: the window before the range, and in click-date mode the window
 * after it too. Touchpoints are the sessions with a channel, minus untagged and organic ones, minus
 * excluded and hidden channels. Each journey becomes its steps, (start, first), (a, b) ...,
 * (last, end), with '' standing for start and end.
 */
export async function chainCounts(ch: Clickhouse, scope: ChainScope): Promise<ChainCounts> {
  const window = scope.attribution.windowDays * DAY_MS;
  const click = scope.attribution.dateMode === 'click';
  const channel = landingField('adv_source');
  const visible = scope.visibleChannels === null ? '' : `\n      AND ${channel} IN {visible_channels:Array(String)}`;
  const inWindow = `x.1 <= ct AND x.1 >= ct - toIntervalDay({window_days:UInt16})`;
  // The list as the report reads it (its rows are written before the model binds).
  const excluded = scope.excludedTransactions.length ? `\n    AND c.transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}` : '';
  const sql = `
WITH
${IDS_CTE},
touches AS (
  SELECT ${sessionIdentitySql('s.visitor_id')} AS identity, arraySort(x -> (x.1, x.2), groupArray((s.started, s.session_id, s.source))) AS path
  FROM (
    SELECT started, session_id, ${landingField('visitor_id')} AS visitor_id, ${reportingSourceSql(channel)} AS source
    FROM ${SESSIONS_FINAL}
    WHERE ${sessionsStartedSql(`{scan_start:${TS}}`, `{scan_end:${TS}}`)}
      AND ${channel} NOT IN {left_out:Array(String)}${visible}
  ) AS s
  LEFT JOIN ids ON ids.id_visitor = s.visitor_id
  GROUP BY identity
),
conv AS (
  SELECT ${conversionIdentitySql('c')} AS identity, groupArray(c.dt) AS times
  FROM conversions AS c
  LEFT JOIN ids ON ids.id_visitor = c.visitor_id
  WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {scan_start:${TS}} AND {scan_end:${TS}}${excluded}
    AND ${soldSql('c.transaction_id')}
  GROUP BY identity
)
SELECT step.1 AS from_state, step.2 AS to_state, journey.2 AS converted, count() AS n
FROM (
  SELECT arrayJoin(arrayFilter(j -> notEmpty(j.1), arrayConcat(
    arrayMap(ct -> (arrayCompact(arrayMap(x -> x.3, arrayFilter(x -> ${inWindow}, t.path))), toUInt8(1)),
      arrayFilter(ct -> ct BETWEEN {conv_start:${TS}} AND {conv_end:${TS}}, c.times)),
    if(empty(c.times), [(arrayCompact(arrayMap(x -> x.3, t.path)), toUInt8(0))], [])
  ))) AS journey
  FROM touches AS t
  LEFT JOIN conv AS c ON c.identity = t.identity
)
ARRAY JOIN arrayZip(arrayPushFront(journey.1, ''), arrayPushBack(journey.1, '')) AS step
GROUP BY from_state, to_state, converted`;
  const rows = await ch.query<{ from_state: string; to_state: string; converted: number; n: string | number }>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    scan_start: timestampParam(scope.range.startMs - window),
    scan_end: timestampParam(scope.range.endMs + (click ? window : 0)),
    conv_start: timestampParam(scope.range.startMs),
    conv_end: timestampParam(scope.range.endMs + (click ? window : 0)),
    window_days: scope.attribution.windowDays,
    left_out: [...new Set([...ORGANIC_CHANNELS, ...scope.attribution.excludedChannels])],
    ...(scope.excludedTransactions.length ? { excluded_list: excludedListId(scope.excludedTransactions) } : {}),
    ...(scope.visibleChannels === null ? {} : { visible_channels: [...scope.visibleChannels] }),
  });
  const counts = emptyCounts();
  const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const row of rows) {
    const n = Number(row.n);
    if (row.from_state === '') add(counts.starts, row.to_state, n);
    else if (row.to_state === '') add(Number(row.converted) === 1 ? counts.conversions : counts.nulls, row.from_state, n);
    else {
      const steps = counts.steps.get(row.from_state) ?? new Map<string, number>();
      counts.steps.set(row.from_state, steps);
      add(steps, row.to_state, n);
    }
  }
  return counts;
}
