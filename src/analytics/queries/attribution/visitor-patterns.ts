import type { Clickhouse } from '../../../store/clickhouse.ts';
import { DAY_MS } from '../../../kit/calendar/days.ts';
import { likePattern, timestampParam } from '../../sql.ts';
import { ORGANIC_CHANNELS, PIXEL_SOURCES, channelsOfAll } from '../../sources.ts';
import { reportingSourceOf } from '../../dimensions.ts';
import { SESSIONS_FINAL, landingField, sessionsStartedSql } from '../sessions/session-sql.ts';
import { IDS_CTE, conversionIdentitySql } from '../../attribution/identity.ts';
import type { VisitorPattern } from '../../attribution/incremental.ts';
import { EXCLUDED_TRANSACTIONS_SQL, excludedListId } from '../settings/excluded-transactions.ts';
import { soldSql } from '../../sales.ts';
import type { ChainScope } from './chain-counts.ts';

export const QUERY_NAME = 'visitor-patterns';

/** What the data-driven fit is learned from: the chain's scope, and the conversion names that make a buyer. */
export interface PatternScope extends ChainScope {
  /** Conversion name patterns (`*` wildcards; `['*']`: every name) whose conversions make a visitor a buyer. */
  conversionNames: readonly string[];
}

const TS = "DateTime64(3, 'UTC')";

/** Every raw channel the app names; any other stored channel is its own reporting source. */
const KNOWN_CHANNELS = channelsOfAll(PIXEL_SOURCES);

/**
 * Every visitor of the scope (visitors sharing a customer id are one) as the set of reporting
 * sources its touchpoints show, counted per set in the engine: only the patterns (at most 2^k
 * rows for k sources) come back. A visitor is in scope with a session started in the scan range
 * (the window before the range, and in click-date mode the window after it too) or a counted
 * conversion in the conversion range; it is a buyer with such a conversion (a sale, not an excluded
 * transaction, of a counted name). Touchpoints are the sessions with a channel, minus organic,
 * excluded and hidden channels; a visitor with none is the empty pattern.
 *
 * The sessions are folded per visitor id (an integer) first: each visitor's sources as a bit mask
 * (bit i: `sources[i]`, set by the touch channels that name it) and the channels the app does not
 * name as strings (`others`, usually empty). Only those rows, a visitor each (at the bench's shape
 * 38,000 for 89,000 sessions), meet the customer ids and the identity strings; the masks become
 * source names once per pattern (docs/performance.md, "data_driven against linear").
 */
export async function visitorPatterns(ch: Clickhouse, scope: PatternScope): Promise<VisitorPattern[]> {
  const window = scope.attribution.windowDays * DAY_MS;
  const click = scope.attribution.dateMode === 'click';
  const leftOut = [...new Set([...ORGANIC_CHANNELS, ...scope.attribution.excludedChannels])];
  const touches = KNOWN_CHANNELS.filter((c) => !leftOut.includes(c) && (scope.visibleChannels === null || scope.visibleChannels.includes(c)));
  const sources = [...new Set(touches.map(reportingSourceOf))];
  const channel = landingField('adv_source');
  const visible = scope.visibleChannels === null ? '' : ` AND channel IN {visible_channels:Array(String)}`;
  const excluded = scope.excludedTransactions.length ? `\n    AND c.transaction_id NOT IN ${EXCLUDED_TRANSACTIONS_SQL}` : '';
  const everyName = scope.conversionNames.includes('*');
  const named = everyName ? '' : '\n    AND (c.name IN {names:Array(String)} OR arrayExists(p -> c.name LIKE p, {name_likes:Array(String)}))';
  const sql = `
WITH
${IDS_CTE},
visitors AS (
  SELECT visitor_id, '' AS customer_id, groupBitOr(bit) AS mask, groupArrayIf(channel, other) AS others, toUInt8(0) AS bought
  FROM (
    SELECT ${landingField('visitor_id')} AS visitor_id, ${channel} AS channel,
      transform(channel, {touch_channels:Array(String)}, {touch_bits:Array(UInt64)}, toUInt64(0)) AS bit,
      bit = 0 AND channel NOT IN {left_out:Array(String)}${visible} AS other
    FROM ${SESSIONS_FINAL}
    WHERE ${sessionsStartedSql(`{scan_start:${TS}}`, `{scan_end:${TS}}`)}
  )
  GROUP BY visitor_id
  UNION ALL
  SELECT c.visitor_id, c.customer_id, toUInt64(0), [], toUInt8(1)
  FROM conversions AS c
  WHERE c.store_id = {store_id:UInt64} AND c.dt BETWEEN {conv_start:${TS}} AND {conv_end:${TS}} AND ${soldSql('c.transaction_id')}${excluded}${named}
)
SELECT arraySort(arrayConcat(arrayFilter((s, i) -> bitTest(mask, i), {sources:Array(String)}, range(length({sources:Array(String)}))), others)) AS sources,
  count() AS visitors, countIf(bought = 1) AS buyers
FROM (
  SELECT ${conversionIdentitySql('v')} AS identity, groupBitOr(v.mask) AS mask, arraySort(arrayDistinct(groupArrayArray(v.others))) AS others, max(v.bought) AS bought
  FROM visitors AS v
  LEFT JOIN ids ON ids.id_visitor = v.visitor_id
  GROUP BY identity
)
GROUP BY mask, others`;
  const rows = await ch.query<{ sources: string[]; visitors: string | number; buyers: string | number }>(QUERY_NAME, sql, {
    store_id: scope.workspaceId,
    scan_start: timestampParam(scope.range.startMs - window),
    scan_end: timestampParam(scope.range.endMs + (click ? window : 0)),
    conv_start: timestampParam(scope.range.startMs),
    conv_end: timestampParam(scope.range.endMs + (click ? window : 0)),
    touch_channels: touches,
    touch_bits: touches.map((c) => 2 ** sources.indexOf(reportingSourceOf(c))),
    sources,
    left_out: leftOut,
    ...(scope.excludedTransactions.length ? { excluded_list: excludedListId(scope.excludedTransactions) } : {}),
    ...(scope.visibleChannels === null ? {} : { visible_channels: [...scope.visibleChannels] }),
    ...(everyName ? {} : {
      names: scope.conversionNames.filter((n) => likePattern(n) === null),
      name_likes: scope.conversionNames.map(likePattern).filter((n): n is string => n !== null),
    }),
  });
  return rows.map((r) => ({ sources: r.sources, visitors: Number(r.visitors), buyers: Number(r.buyers) }));
}
